#!/usr/bin/env python3
"""Builds a deterministic synthetic Java repository for pg-advisory-lint benchmarks.

Usage: generate.py OUT_DIR [--files N] [--lines-per-file L] [--lock-share P] [--helper-share P] [--seed S]
       generate.py OUT_DIR --long-method N | --long-script N


- N Java files of about L lines each, spread over packages of 50 files;
- a share P of them takes an advisory lock directly (JDBC and JdbcTemplate shapes, some with LIMIT
  queries or no finally), and a share of them calls a lock helper declared in one helper class;
- one key registry class with constants the lockers refer to, a pgbouncer.ini and an application.yml.
With --long-method N, the tree is one Java method of N statements instead (groups of four: a local,
a session lock, a call with it, the unlock); with --long-script N, one SQL script of N statements
(a session lock, an update and the unlock, alternating with a transaction-level lock). These are the
shapes of bench/run.sh's scaling rows: their cost must grow linearly with N.
The same arguments always give the same bytes.
"""
import argparse
import os
import random

FILLER = [
    "        int total{i} = values.stream().mapToInt(Integer::intValue).sum();",
    "        if (total{i} > limit) {{ log.debug(\"over limit {{}}\", total{i}); }}",
    "        StringBuilder sb{i} = new StringBuilder(\"row-\").append({i});",
    "        names.add(sb{i}.toString());",
    "        for (int k{i} = 0; k{i} < 3; k{i}++) {{ counter += k{i} * {i}; }}",
]


def java_file(pkg, name, lines, kind, rnd, key):
    out = [f"package {pkg};", "", "import java.sql.Connection;", "import java.sql.Statement;",
           "import java.util.ArrayList;", "import java.util.List;", "import bench.keys.LockKeys;",
           "import bench.locking.Locks;", "", f"public class {name} {{",
           "    private final List<String> names = new ArrayList<>();", "    private int counter;",
           "    private final int limit = 10;", "    private org.slf4j.Logger log;",
           "    private Locks locks;", ""]
    if kind == "direct":
        out += ["    public void lockJob(Connection c) throws Exception {",
                "        try (Statement st = c.createStatement()) {",
                f"            st.execute(\"SELECT pg_advisory_lock({key})\");",
                "            try {", "                st.execute(\"VACUUM t\");", "            } finally {",
                f"                st.execute(\"SELECT pg_advisory_unlock({key})\");", "            }", "        }", "    }", ""]
        if rnd.random() < 0.3:
            out += ["    public Object claim(Statement st) throws Exception {",
                    "        return st.executeQuery(\"SELECT id FROM jobs WHERE pg_try_advisory_xact_lock(id) ORDER BY id LIMIT 1\");",
                    "    }", ""]
    elif kind == "helper":
        out += ["    public void viaHelper() throws Exception {",
                f"        locks.withLock(LockKeys.K{key % 50}, () -> counter++);", "    }", ""]
    method = 0
    while len(out) < lines - 2:
        out.append(f"    public void work{method}(List<Integer> values) {{")
        for i in range(len(FILLER)):
            out.append(FILLER[i].format(i=method * 10 + i))
        out.append("    }")
        out.append("")
        method += 1
    out.append("}")
    return "\n".join(out) + "\n"


def long_method(out, n):
    path = os.path.join(out, "src/main/java/bench/LongMethod.java")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("package bench;\n\nimport java.sql.*;\n\nclass LongMethod {\n"
                "    void run(Connection conn, Helper h) throws SQLException {\n")
        for i in range(n // 4):
            f.write(f"        String s{i} = \"job-\" + {i};\n")
            f.write(f"        try (Statement a{i} = conn.createStatement()) {{ a{i}.execute(\"SELECT pg_advisory_lock({i})\"); }}\n")
            f.write(f"        h.work(s{i}, conn);\n")
            f.write(f"        try (Statement u{i} = conn.createStatement()) {{ u{i}.execute(\"SELECT pg_advisory_unlock({i})\"); }}\n")
        f.write("    }\n}\n\ninterface Helper {\n    void work(String s, Connection c);\n}\n")


def long_script(out, n):
    os.makedirs(os.path.join(out, "db"), exist_ok=True)
    with open(os.path.join(out, "db/jobs.sql"), "w", encoding="utf-8") as f:
        i = 0
        while i < n:
            if (i // 4) % 2:
                f.write(f"SELECT pg_advisory_lock({i});\nUPDATE jobs SET state = 1 WHERE id = {i};\n"
                        f"SELECT pg_advisory_unlock({i});\n")
                i += 3
            else:
                f.write(f"SELECT pg_advisory_xact_lock({i});\n")
                i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--lines-per-file", type=int, default=160)
    ap.add_argument("--lock-share", type=float, default=0.01)
    ap.add_argument("--helper-share", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--long-method", type=int, metavar="N", help="one Java method of N statements")
    ap.add_argument("--long-script", type=int, metavar="N", help="one SQL script of N statements")
    a = ap.parse_args()
    if a.long_method:
        long_method(a.out, a.long_method)
        return
    if a.long_script:
        long_script(a.out, a.long_script)
        return
    rnd = random.Random(a.seed)
    root = os.path.join(a.out, "src/main/java")
    def write(rel, text):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    keys = "\n".join(f"    public static final long K{i} = {1000 + i}L;" for i in range(50))
    write("bench/keys/LockKeys.java", f"package bench.keys;\n\npublic final class LockKeys {{\n{keys}\n}}\n")
    write("bench/locking/Locks.java", """package bench.locking;

import java.sql.Connection;
import java.sql.PreparedStatement;

public class Locks {
    private Connection connection;

    public <T> T withLock(long key, java.util.function.Supplier<T> work) throws Exception {
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        }
        try {
            return work.get();
        } finally {
            try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, key);
                ps.execute();
            }
        }
    }
}
""")
    for n in range(a.files):
        r = rnd.random()
        kind = "direct" if r < a.lock_share else "helper" if r < a.lock_share + a.helper_share else "plain"
        pkg = f"bench.p{n // 50}"
        write(f"bench/p{n // 50}/C{n}.java", java_file(pkg, f"C{n}", a.lines_per_file, kind, rnd, 2000 + n))
    res = os.path.join(a.out, "src/main/resources")
    os.makedirs(res, exist_ok=True)
    with open(os.path.join(res, "application.yml"), "w") as f:
        f.write("spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n")
    with open(os.path.join(a.out, "pgbouncer.ini"), "w") as f:
        f.write("[pgbouncer]\npool_mode = session\n")


if __name__ == "__main__":
    main()
