package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.stmt.BlockStmt;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The outline the constant index is built from: the same constants and types, at the same lines and
 * columns, as the whole file, at a fraction of its size.
 */
class JavaOutlineTest {

    private static final JavaFrontEnd FRONT_END = new JavaFrontEnd(new SqlAnalyzer());

    /** Every constant and every type outside a method body, with its range and text. */
    private static List<String> declarations(JavaFrontEnd.Parsed parsed) {
        ConstantIndex.Contribution c = ConstantIndex.collect(parsed.unit(), parsed.file());
        List<String> out = new ArrayList<>();
        c.constants()
                .forEach(e -> out.add(
                        e.getKey() + " " + e.getValue().declaration().getRange().orElseThrow() + " "
                                + e.getValue().declaration()));
        for (TypeDeclaration<?> t : c.types()) {
            if (t.findAncestor(BlockStmt.class).isEmpty()) {
                out.add("type " + t.getNameAsString() + " " + t.getRange().orElseThrow());
            }
        }
        return out;
    }

    private static void sameDeclarations(String path, String text) {
        SourceFile file = new SourceFile(path, text);
        JavaFrontEnd.Parsed whole = FRONT_END.parse(file);
        JavaFrontEnd.Parsed outline = FRONT_END.parseOutline(file);
        assertThat(whole.unit()).as(path).isNotNull();
        assertThat(outline.unit()).as(path).isNotNull();
        assertThat(declarations(outline)).as(path).isEqualTo(declarations(whole));
    }

    @Test
    void keepsEveryDeclarationAtItsPlaceAndDropsLongBodies() {
        String longBody = "        int x = 0;\n".repeat(20);
        String text = """
                package p;

                import java.util.List;
                import static p.Keys.BASE;

                /** { a brace in a comment } */
                public class Job extends Base implements Runnable {
                    static final long A = 1L; // {
                    static final String SQL = "select pg_advisory_lock(?) /* { */";
                    static final String BLOCK = \"""
                        select '{' -- }
                        \""";
                    static final char OPEN = '{';
                    static final Runnable R = () -> { int y = 1; };
                    static final Object O = new Object() { public String toString() { return "}"; } };
                    static final int[] ARR = {1, 2, 3};
                    @Deprecated(since = "1") static final long B = A + BASE;
                    static { System.out.println("init"); }
                    public void run() {
                %s    }
                    <T extends List<String>> T generic(T t) throws IllegalStateException, java.io.IOException {
                %s        return t;
                    }
                    long key() { return java.util.Objects.hash(SQL); }
                    interface Nested { long C = 3; }
                    record Pair(long a, long b) { static final long D = 4; Pair { if (a < 0) throw new IllegalArgumentException(); } }
                    enum Kind { ONE(1) { @Override long id() { return 11; } }, TWO(2); final long code; Kind(long c) { code = c; } long id() { return code; } }
                    @interface Marker { Class<?> value() default Job.class; }
                }
                """.formatted(longBody, longBody);
        sameDeclarations("Job.java", text);
        JavaOutline.Outline outline = JavaOutline.of(text);
        assertThat(outline.text())
                .doesNotContain("int x = 0")
                .doesNotContain("void run()")
                .doesNotContain("generic(")
                .doesNotContain("a brace in a comment")
                // short and hash bodies stay: another file's KeyEvaluator reads them
                .contains("return java.util.Objects.hash(SQL);")
                .contains("ONE(1) {")
                .contains("code = c;");
        assertThat(outline.text().length()).isLessThan(text.length() / 2);
    }

    @Test
    void keepsTheLongBodyOfAQueryHelperThatBorrowsItsOwnConnection() {
        String filler = "        int unused = 0;\n".repeat(12);
        String text = "class Db {\n"
                + "    Object fetch(String sql) throws Exception {\n"
                + filler
                + "        try (var c = pool.getConnection(); var ps = c.prepareStatement(sql)) { return ps.execute(); }\n"
                + "    }\n"
                + "    Object other(String sql) throws Exception {\n"
                + filler
                + "        return pool.getConnection();\n"
                + "    }\n"
                + "}\n";
        String outline = JavaOutline.of(text).text();

        assertThat(outline).contains("fetch(String sql)").contains("c.prepareStatement(sql)");
        assertThat(outline).doesNotContain("other("); // a connection but no statement: dropped whole
        assertThat(JavaOutline.runsStatementsOnOwnConnection(text)).isTrue();
        assertThat(JavaOutline.runsStatementsOnOwnConnection(
                        "class A { void f(Connection c) { c.prepareStatement(s); } }"))
                .isFalse();
    }

    @Test
    void eachCharacterOfTheOutlineKnowsItsOffsetInTheFile() {
        String text = "class A {\n  // x\n  static final long K =   7;\n}\n";
        JavaOutline.Outline outline = JavaOutline.of(text);
        int k = outline.text().indexOf('K');
        assertThat(outline.fileOffset(k)).isEqualTo(text.indexOf('K'));
        assertThat(outline.fileOffset(outline.text().indexOf('7'))).isEqualTo(text.indexOf('7'));
        assertThat(outline.fileOffset(outline.text().length())).isEqualTo(text.length());
    }

    @Test
    void referencedTypeNamesCoverWhatTheSyntaxTreeNames() throws IOException {
        // the token scan decides which files are outlined for their constants: it must name every type
        // the tree would (a superset is fine)
        Path fixtures = Path.of("..", "rules", "src", "test", "resources", "fixtures");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(fixtures)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(100);
        for (Path p : files) {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            JavaFrontEnd.Parsed whole = FRONT_END.parse(new SourceFile(p.toString(), text));
            if (whole.unit() == null) {
                continue; // fixtures of parse errors
            }
            assertThat(JavaOutline.referencedTypeNames(text))
                    .as(p.toString())
                    .containsAll(JavaFrontEnd.referencedTypeNames(whole.unit()));
            sameDeclarations(p.toString(), text);
        }
    }

    @Test
    void declarationsNameTheirTypesOnlyWhenAsked() {
        // a type of the same package needs no import: a lock-using file's calls on it name it by its declarations
        String text = "package p;\nclass A {\n  private final ClaimSession session;\n"
                + "  A(ClaimWindow window) { Map<String, Owner> m = null; long n = Keys.LOCK; }\n}\n";
        assertThat(JavaOutline.referencedTypeNames(text)).containsExactly("Keys");
        assertThat(JavaOutline.referencedTypeNames(text, true)).containsExactly("ClaimSession", "ClaimWindow", "Keys");
    }

    @Test
    void unbalancedTextIsKeptAsItIs() {
        String text = "class A { void f() { if (x) { ";
        assertThat(JavaOutline.of(text).text()).isEqualTo("class A { void f() { if (x) { ");
    }
}
