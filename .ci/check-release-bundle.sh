#!/usr/bin/env bash
# Builds the release bundle the way a release does (./mvnw -Prelease deploy), into a staging directory
# instead of a remote repository, and checks it has what Maven Central requires:
#   - every POM (with what it inherits from the staged parent) has name, description, url, licenses,
#     developers, scm (url, connection) and issueManagement;
#   - every jar or maven-plugin artifact has its -sources.jar (holding .java files) and -javadoc.jar
#     (holding index.html) next to it, and checksums;
#   - the cli module publishes the runnable jar with classifier "all", and it runs --version;
#   - with a key configured (a throw-away key made here), every published file has a valid .asc signature;
#     without one, the release profile still builds and signs nothing;
#   - -DskipTests skips the maven-plugin invoker ITs;
#   - the repository has the Apache-2.0 LICENSE the POMs name.
# Nothing is installed into ~/.m2 (maven.install.skip). Run from anywhere; about 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/staging
fail() { echo "check-release-bundle: $*" >&2; exit 1; }

grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE || fail "LICENSE is not the Apache-2.0 text"

# A throw-away signing key without a passphrase, in its own GnuPG home.
export GNUPGHOME=$work/gnupg
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'pg-advisory-lint bundle check <bundle-check@example.invalid>' ed25519 sign never 2>/dev/null
key=$(gpg --batch --list-secret-keys --with-colons 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
[ -n "$key" ] || fail "could not make a test key"

echo "check-release-bundle: ./mvnw -Prelease deploy -DskipTests into $stage (signed with a test key)" >&2
if ! ./mvnw -B -ntp -Prelease deploy -DskipTests -Dmaven.install.skip=true \
    -DaltDeploymentRepository="staging::file://$stage" -Dgpg.keyname="$key" -Dgpg.homedir="$GNUPGHOME" \
    >"$work/deploy.log" 2>&1; then
  tail -60 "$work/deploy.log" >&2
  fail "the release build failed"
fi

# -DskipTests skipped the invoker ITs (invoker.skip follows skipTests in maven-plugin/pom.xml).
grep -q 'Skipping invocation' "$work/deploy.log" || fail "-DskipTests did not skip the invoker ITs"
if grep -q 'Building: ' "$work/deploy.log"; then fail "-DskipTests still ran an invoker IT"; fi

python3 - "$stage" "$GNUPGHOME" <<'PY'
import glob, os, subprocess, sys, zipfile
import xml.etree.ElementTree as ET

stage, gnupg = sys.argv[1], sys.argv[2]
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
base = os.path.join(stage, "io", "github", "pgadvisorylint")
problems = []

def latest(artifact_dir, suffix):
    """The newest staged file of an artifact ending in suffix (SNAPSHOT files carry a timestamp)."""
    files = sorted(f for f in glob.glob(os.path.join(artifact_dir, "*", "*" + suffix)))
    return files[-1] if files else None

def pom_of(artifact):
    path = latest(os.path.join(base, artifact), ".pom")
    if path is None:
        problems.append(f"{artifact}: no POM staged")
        return None
    return ET.parse(path).getroot()

def effective(root, field):
    """A POM's value of field (an XPath below project), else its staged parent's, and so on."""
    while root is not None:
        hit = root.find("m:" + field, NS)
        if hit is not None and (hit.text or "").strip() or (hit is not None and len(hit)):
            return hit
        parent = root.find("m:parent/m:artifactId", NS)
        root = pom_of(parent.text) if parent is not None else None
    return None

artifacts = sorted(d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)))
expected = {"pg-advisory-lint-parent", "pg-advisory-lint-core", "pg-advisory-lint-rules",
            "pg-advisory-lint-test-fixtures", "pg-advisory-lint-cli", "pg-advisory-lint-maven-plugin"}
if set(artifacts) != expected:
    problems.append(f"staged artifacts {artifacts}, expected {sorted(expected)}")

for artifact in artifacts:
    root = pom_of(artifact)
    if root is None:
        continue
    for field in ["name", "description", "url", "licenses/m:license/m:name", "licenses/m:license/m:url",
                  "developers/m:developer/m:name", "scm/m:url", "scm/m:connection", "issueManagement/m:url"]:
        hit = effective(root, field)
        if hit is None or not (hit.text or "").strip():
            problems.append(f"{artifact}: POM has no {field.replace('m:', '')}")
    lic = effective(root, "licenses/m:license/m:name")
    if lic is not None and lic.text.strip() != "Apache-2.0":
        problems.append(f"{artifact}: license {lic.text.strip()}, expected Apache-2.0")
    own_name = root.find("m:name", NS)
    if own_name is None:
        problems.append(f"{artifact}: no name of its own (the parent's would be published for it)")
    packaging = root.find("m:packaging", NS)
    packaging = packaging.text.strip() if packaging is not None else "jar"
    published = [latest(os.path.join(base, artifact), ".pom")]
    if packaging in ("jar", "maven-plugin"):
        jars = {kind: latest(os.path.join(base, artifact), suffix) for kind, suffix in
                [("main", "[0-9].jar"), ("sources", "-sources.jar"), ("javadoc", "-javadoc.jar")]}
        for kind, path in jars.items():
            if path is None:
                problems.append(f"{artifact}: no {kind} jar staged")
            else:
                published.append(path)
        if jars["sources"] and not any(n.endswith(".java") for n in zipfile.ZipFile(jars["sources"]).namelist()):
            problems.append(f"{artifact}: the sources jar holds no .java file")
        if jars["javadoc"] and "index.html" not in zipfile.ZipFile(jars["javadoc"]).namelist():
            problems.append(f"{artifact}: the javadoc jar has no index.html")
    elif packaging != "pom":
        problems.append(f"{artifact}: unexpected packaging {packaging}")
    if artifact == "pg-advisory-lint-cli":
        runnable = latest(os.path.join(base, artifact), "-all.jar")
        if runnable is None:
            problems.append("pg-advisory-lint-cli: no runnable jar with classifier all staged")
        else:
            published.append(runnable)
            run = subprocess.run(["java", "-jar", runnable, "--version"], capture_output=True, text=True)
            version = os.path.basename(os.path.dirname(runnable))
            if run.returncode != 0 or not run.stdout.startswith("pg-advisory-lint " + version):
                problems.append(f"pg-advisory-lint-cli: java -jar {os.path.basename(runnable)} --version gave exit"
                                f" {run.returncode}, output {run.stdout!r} {run.stderr!r}")
            else:
                print(f"check-release-bundle: {os.path.basename(runnable)} --version: {run.stdout.strip()}")
    for path in filter(None, published):
        for extra in (".sha1", ".md5"):
            if not os.path.exists(path + extra):
                problems.append(f"{os.path.basename(path)}: no {extra} checksum")
        if not os.path.exists(path + ".asc"):
            problems.append(f"{os.path.basename(path)}: no .asc signature")
            continue
        check = subprocess.run(["gpg", "--homedir", gnupg, "--batch", "--verify", path + ".asc", path],
                               capture_output=True, text=True)
        if check.returncode != 0:
            problems.append(f"{os.path.basename(path)}: signature does not verify: {check.stderr.strip()}")
    print(f"check-release-bundle: {artifact} ({packaging}): {len(list(filter(None, published)))} files checked")

if problems:
    print("check-release-bundle: the bundle misses what Maven Central requires:", file=sys.stderr)
    for p in problems:
        print("  - " + p, file=sys.stderr)
    sys.exit(1)
PY

# Without a key the release profile builds and signs nothing (the core module is enough to show it).
rm -rf "$stage"
echo "check-release-bundle: ./mvnw -Prelease deploy -pl core without a key" >&2
if ! env -u MAVEN_GPG_KEY ./mvnw -B -ntp -Prelease deploy -pl core -DskipTests -Dmaven.install.skip=true \
    -DaltDeploymentRepository="staging::file://$stage" >"$work/unsigned.log" 2>&1; then
  tail -40 "$work/unsigned.log" >&2
  fail "the release build without a key failed"
fi
ls "$stage"/io/github/pgadvisorylint/pg-advisory-lint-core/*/*-sources.jar >/dev/null || fail "no sources jar without a key"
if find "$stage" -name '*.asc' | grep -q .; then fail "files were signed without a configured key"; fi

echo "check-release-bundle: OK ($root)"
