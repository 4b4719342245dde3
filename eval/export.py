#!/usr/bin/env python3
"""Writes the tree of one commit of a git repository (a checkout or a bare mirror) into a directory.

Usage: export.py REPOSITORY COMMIT DIRECTORY

Unlike `git archive`, a blob the repository does not hold (a mirror that left its largest files out)
does not stop the export: it is skipped and named on standard error. Symbolic links are written as
links, submodules are skipped. Standard library only.
"""
import os
import subprocess
import sys


def main(repo, commit, out):
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-z", "--full-tree", commit],
                             check=True, capture_output=True).stdout
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split(b" ")
        if kind == b"blob":
            entries.append((mode.decode(), sha.decode(), os.fsdecode(path)))
    batch = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    for mode, sha, path in entries:
        batch.stdin.write((sha + "\n").encode())
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            missing.append(path)
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after the contents
        target = os.path.join(out, path)
        if not os.path.realpath(target).startswith(os.path.realpath(out) + os.sep):
            missing.append(path)
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == "120000":
            os.symlink(os.fsdecode(data), target)
        else:
            with open(target, "wb") as handle:
                handle.write(data)
            if mode == "100755":
                os.chmod(target, 0o755)
    batch.stdin.close()
    batch.wait()
    if missing:
        print(f"export.py: {len(missing)} of {len(entries)} files are not in {repo} and were left out,"
              f" e.g. {missing[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
