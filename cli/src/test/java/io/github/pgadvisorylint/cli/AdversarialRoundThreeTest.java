package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The third adversarial pass (issue 19's second one): each case through the real CLI with the real
 * rules, compared with a cold scan.
 */
@Timeout(180)
class AdversarialRoundThreeTest {

    @TempDir
    Path dir;

    /** A lock helper two calls down, two callers, and a key constant in its own file. */
    private void helperProject() throws IOException {
        Path src = Files.createDirectories(dir.resolve("project/src/p"));
        Files.writeString(src.resolve("Base.java"), """
                package p;

                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;

                public class Base {
                    private Connection connection;

                    public void take(long key) throws SQLException {
                        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
                            ps.setLong(1, key);
                            ps.execute();
                        }
                    }

                    public void give(long key) throws SQLException {
                        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                            ps.setLong(1, key);
                            ps.executeQuery().next();
                        }
                    }
                }
                """);
        Files.writeString(src.resolve("Middle.java"), """
                package p;

                import java.sql.SQLException;

                public class Middle {
                    private Base base;

                    public void enter(long key) throws SQLException {
                        base.take(key);
                    }
                }
                """);
        Files.writeString(src.resolve("Keys.java"), """
                package p;

                public final class Keys {
                    public static final long NIGHTLY = 4242L;
                }
                """);
        for (String user : new String[] {"Nightly", "Weekly"}) {
            Files.writeString(src.resolve(user + ".java"), """
                    package p;

                    import java.sql.SQLException;

                    public class %s {
                        private Middle middle;
                        private Base base;

                        public void run(Runnable work) throws SQLException {
                            middle.enter(Keys.NIGHTLY);
                            work.run();
                            base.give(Keys.NIGHTLY);
                        }
                    }
                    """.formatted(user));
        }
    }

    private static String json(CliHarness.Run run) {
        return run.out().replaceAll("\"elapsedMillis\" *: *\\d+", "\"elapsedMillis\": 0");
    }

    private static void editJson(Path file, Consumer<JsonNode> edit) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode tree = mapper.readTree(file.toFile());
        edit.accept(tree);
        mapper.writeValue(file.toFile(), tree);
    }

    /**
     * A cache entry edited by hand used to be taken at its word: emptied sites of an unchanged file gave
     * a report without its findings, and emptied helpers in the earlier rounds of a helper file (read
     * when another file changed) lost every caller's finding, both with exit code 0 and no warning. Now
     * the cache is sealed by a checksum: any such edit makes it unusable, with a warning, and the report
     * is the cold one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sites", "called", "extractedWith", "earlier-helpers"})
    void aHandEditedCacheEntryNeverChangesTheReport(String field) throws IOException {
        helperProject();
        String cold = json(CliHarness.real(dir, "scan", "-f", "json", "project"));
        assertThat(cold).contains("\"path\": \"src/p/Nightly.java\"").contains("\"path\": \"src/p/Weekly.java\"");
        CliHarness.Run first = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        assertThat(json(first)).isEqualTo(cold);

        editJson(dir.resolve("cache.json"), tree -> {
            ObjectNode nightly = (ObjectNode) tree.at("/files/src~1p~1Nightly.java");
            ObjectNode middle = (ObjectNode) tree.at("/files/src~1p~1Middle.java");
            switch (field) {
                case "sites" -> {
                    ((ObjectNode) nightly.get("facts")).putArray("sites");
                    ((ObjectNode) nightly.get("facts")).putArray("lifecycles");
                }
                case "called" -> nightly.putArray("called");
                case "extractedWith" -> nightly.put("extractedWith", "0".repeat(64));
                default -> {
                    assertThat(middle.get("earlier").isArray())
                            .as("Middle takes part in several helper rounds")
                            .isTrue();
                    middle.get("earlier").forEach(round -> ((ObjectNode) round).putArray("helpers"));
                    ((ObjectNode) middle.get("facts")).putArray("helpers");
                }
            }
        });
        // an edit elsewhere, so that the Java part is redone file by file and reads the entries
        Path keys = dir.resolve("project/src/p/Keys.java");
        Files.writeString(keys, Files.readString(keys) + "// reviewed\n");
        String coldAgain = json(CliHarness.real(dir, "scan", "-f", "json", "project"));

        CliHarness.Run warm = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        assertThat(warm.err()).contains("warning: cannot use cache file").contains("do not match the checksum");
        assertThat(json(warm)).isEqualTo(coldAgain);
        // rewritten sealed: the next run uses it again, silently
        CliHarness.Run again = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        assertThat(again.err()).doesNotContain("cannot use cache file");
        assertThat(json(again)).isEqualTo(coldAgain);
    }

    /** The unchanged tree reuses the Java facts as a whole: an emptied entry was invisible there too. */
    @ParameterizedTest
    @ValueSource(strings = {"sites", "helpers"})
    void aHandEditedCacheOfAnUnchangedTreeIsNotUsed(String list) throws IOException {
        helperProject();
        String cold = json(CliHarness.real(dir, "scan", "-f", "json", "project"));
        CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        editJson(
                dir.resolve("cache.json"),
                tree -> tree.get("files").forEach(entry -> {
                    if (entry.get("facts").isObject()) {
                        ArrayNode emptied = ((ObjectNode) entry.get("facts")).putArray(list);
                        assertThat(emptied).isEmpty();
                    }
                }));
        CliHarness.Run warm = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        assertThat(warm.err()).contains("warning: cannot use cache file");
        assertThat(json(warm)).isEqualTo(cold);
        assertThat(warm.exitCode()).isEqualTo(1);
    }

    private void write(String path, String text) throws IOException {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /**
     * Two modules each with a {@code Keys.java}: only the first file of a simple name was outlined, so
     * {@code b}'s {@code Keys.JOB} (2002) read as {@code a}'s (1001), and the duplicate of 2002 written as
     * a literal in {@code b} went unreported. Now every file of the name is outlined and the index picks
     * the one of the referring file's package.
     */
    @Test
    void everyFileOfAReferencedTypeNameIsReadForConstants() throws IOException {
        write(
                "project/a/src/a/Keys.java",
                "package a;\n\npublic final class Keys {\n    public static final long JOB = 1001L;\n}\n");
        write(
                "project/b/src/b/Keys.java",
                "package b;\n\npublic final class Keys {\n    public static final long JOB = 2002L;\n}\n");
        // silent for duplicate-lock-key: a's key 1001 is taken once
        write("project/a/src/a/Other.java", """
                package a;

                public class Other {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_xact_lock(" + Keys.JOB + ")");
                    }
                }
                """);
        // fires: b's key 2002 through b.Keys, and again as a literal
        write("project/b/src/b/Use.java", """
                package b;

                public class Use {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_xact_lock(" + Keys.JOB + ")");
                    }
                }
                """);
        write("project/b/src/b/Lit.java", """
                package b;

                public class Lit {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_xact_lock(2002)");
                    }
                }
                """);
        CliHarness.Run scan = CliHarness.real(dir, "scan", "-f", "json", "project");
        JsonNode report = new ObjectMapper().readTree(scan.out());
        List<String> duplicates = new ArrayList<>();
        for (JsonNode f : report.get("findings")) {
            if (f.get("ruleId").asText().equals("duplicate-lock-key")) {
                duplicates.add(
                        f.get("path").asText() + " " + f.get("message").asText().replaceAll(" \\(.*", ""));
            }
        }
        assertThat(duplicates)
                .containsExactly(
                        "b/src/b/Lit.java pg_advisory_xact_lock(2002) takes the key 2002 from literal 2002",
                        "b/src/b/Use.java pg_advisory_xact_lock(Keys.JOB) takes the key 2002 from b.Keys.JOB");
        CliHarness.Run keys = CliHarness.real(dir, "keys", "project");
        assertThat(keys.out()).contains("origin:    a.Keys.JOB").contains("b.Keys.JOB");
        assertThat(keys.out().substring(0, keys.out().indexOf("key (2002)"))).doesNotContain("b/src/b/Use.java");
    }

    /**
     * A mapper XML names its interface by qualified name; with two interfaces of that simple name, the
     * first in path order was read for the parameter names. Here the decoy puts the key second, so
     * the caller's first argument (the key) looked like the note and its lock site was lost.
     */
    @Test
    void aMapperReadsTheInterfaceOfItsNamespace() throws IOException {
        write("project/a-decoy/src/com/acme/old/JobMapper.java", """
                package com.acme.old;

                public interface JobMapper {
                    void take(String note, @org.apache.ibatis.annotations.Param("key") long key);
                }
                """);
        write("project/b-app/src/com/acme/jobs/JobMapper.java", """
                package com.acme.jobs;

                public interface JobMapper {
                    void take(@org.apache.ibatis.annotations.Param("key") long key, String note);
                }
                """);
        write("project/b-app/src/mappers/JobMapper.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <mapper namespace="com.acme.jobs.JobMapper">
                  <select id="take">SELECT pg_advisory_lock(#{key})</select>
                </mapper>
                """);
        // fires: the session lock taken through the mapper is never released
        write("project/b-app/src/com/acme/jobs/Nightly.java", """
                package com.acme.jobs;

                public class Nightly {
                    private JobMapper mapper;

                    void run() {
                        mapper.take(7007L, "nightly");
                    }
                }
                """);
        CliHarness.Run scan = CliHarness.real(dir, "scan", "-f", "json", "project");
        assertThat(scan.out()).contains("\"path\": \"b-app/src/com/acme/jobs/Nightly.java\"");
        assertThat(CliHarness.real(dir, "keys", "project").out()).contains("key (7007)");
    }

    /**
     * A file that never mentions advisory locks joins the analysis when it calls a helper; the cheap
     * text test before parsing wanted the name right before its parenthesis, so a generic helper type's
     * {@code new Held<>(...)}, {@code new Held<String>(...)} or a line break before the parenthesis lost
     * the caller's finding. The same project also goes through the cache, edited between runs: the
     * sealed cache is accepted again (its checksum is over the text, not over objects read back).
     */
    @Test
    void aCallerOfAGenericHelperTypeIsFoundWithoutTheWordAdvisory() throws IOException {
        write("project/src/p/Held.java", """
                package p;

                import java.sql.Connection;
                import java.sql.PreparedStatement;
                import java.sql.SQLException;

                public class Held<T> implements AutoCloseable {
                    private final Connection connection;
                    private final long key;

                    public Held(Connection connection, long key) throws SQLException {
                        this.connection = connection;
                        this.key = key;
                        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
                            ps.setLong(1, key);
                            ps.execute();
                        }
                    }

                    @Override
                    public void close() throws SQLException {
                        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                            ps.setLong(1, key);
                            ps.executeQuery().next();
                        }
                    }
                }
                """);
        String[][] callers = {
            {"Diamond", "new Held<>(c, 5150L)"},
            {"Explicit", "new Held<String>(c, 5151L)"},
            {"Broken", "new Held\n                (c, 5152L)"},
            {"Commented", "new Held</* the payload */ String>(c, 5153L)"},
        };
        for (String[] caller : callers) {
            // fires: the handle is never closed
            write("project/src/p/" + caller[0] + ".java", """
                    package p;

                    import java.sql.Connection;

                    public class %s {
                        public void leak(Connection c) throws Exception {
                            Held<String> h = %s;
                            c.createStatement().execute("UPDATE t SET x = 1");
                        }
                    }
                    """.formatted(caller[0], caller[1]));
        }
        // silent: names the type, never creates one
        write("project/src/p/Holder.java", """
                package p;

                public class Holder {
                    private Held<String> held;
                    private int size;

                    boolean small(int limit) {
                        return size < limit && held != null;
                    }
                }
                """);
        CliHarness.Run cold = CliHarness.real(dir, "scan", "-f", "json", "project");
        JsonNode report = new ObjectMapper().readTree(cold.out());
        List<String> leaks = new ArrayList<>();
        for (JsonNode f : report.get("findings")) {
            if (f.get("ruleId").asText().equals("lock-without-finally-unlock")) {
                leaks.add(f.get("path").asText());
            }
        }
        assertThat(leaks)
                .containsExactly(
                        "src/p/Broken.java", "src/p/Commented.java", "src/p/Diamond.java", "src/p/Explicit.java");

        CliHarness.Run first = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
        assertThat(json(first)).isEqualTo(json(cold));
        Path edited = dir.resolve("project/src/p/Explicit.java");
        Files.writeString(edited, Files.readString(edited) + "// touched\n");
        String coldAgain = json(CliHarness.real(dir, "scan", "-f", "json", "project"));
        for (int run = 0; run < 2; run++) {
            CliHarness.Run warm = CliHarness.real(dir, "scan", "-f", "json", "--cache", "cache.json", "project");
            assertThat(warm.err()).doesNotContain("cannot use cache file");
            assertThat(json(warm)).isEqualTo(coldAgain);
        }
    }

    /**
     * A key constant read from another file's outline, with a unicode escape earlier on its line: the
     * outline gave its nodes positions in the file as written, and the index mapped them once more,
     * so the origin's column was off by the escape's extra characters (five per escape).
     */
    @Test
    void aConstantAfterAUnicodeEscapeKeepsItsColumn() throws IOException {
        write("project/src/p/Keys.java", """
                package p;

                public final class Keys {
                    /* caf\\u00e9 */ public static final long NIGHTLY = 5L;
                    \\u0070ublic static final long WEEKLY = 6L;
                }
                """);
        write("project/src/p/Use.java", """
                package p;

                public class Use {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_xact_lock(" + Keys.NIGHTLY + ")");
                        st.execute("SELECT pg_advisory_xact_lock(" + Keys.WEEKLY + ")");
                    }
                }
                """);
        assertThat(Files.readString(dir.resolve("project/src/p/Keys.java"))).contains("caf\\u00e9 */");
        CliHarness.Run keys = CliHarness.real(dir, "keys", "project");
        assertThat(keys.out())
                .contains("origin:    p.Keys.NIGHTLY (src/p/Keys.java:4:46)")
                .contains("origin:    p.Keys.WEEKLY (src/p/Keys.java:5:35)");
    }

    /**
     * One class with two thousand methods that each take a session lock: for every acquisition the
     * lifecycle and timeout analyses walked the whole class again, so the file spent its whole time
     * budget (more than 10 s) and was skipped with every finding. Each walk is now done once per class.
     * The count of findings is the check; the time is a guard, not a benchmark.
     */
    @Test
    void aClassWithThousandsOfLockMethodsIsAnalysedWhole() throws IOException {
        StringBuilder text = new StringBuilder(
                "package p;\n\nimport java.sql.Connection;\n\npublic class Locks {\n" + "    private Connection c;\n");
        int methods = 2000;
        for (int i = 0; i < methods; i++) {
            // fires: a session lock with no unlock anywhere
            text.append("    public void lockJob")
                    .append(i)
                    .append("(long key) throws Exception { c.createStatement()"
                            + ".execute(\"SELECT pg_advisory_lock(\" + key + \")\"); }\n");
        }
        write("project/src/p/Locks.java", text.append("}\n").toString());
        CliHarness.Run scan = CliHarness.real(dir, "scan", "-f", "json", "project");
        JsonNode report = new ObjectMapper().readTree(scan.out());
        assertThat(report.get("notifications")).isEmpty();
        assertThat(report.get("findings")).hasSize(methods);
    }
}
