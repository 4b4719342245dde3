package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.source.SourceFile;
import org.junit.jupiter.api.Test;

class LiteralDecoderTest {

    private static int at(JavaText t, String needle) {
        return t.offsetAt(t.text().indexOf(needle));
    }

    @Test
    void stringLiteralKeepsOffsetsThroughEscapes() {
        String src = "x(\"a\\tb\\\"pg_lock\\u0041\");";
        int open = src.indexOf('"');
        int close = src.lastIndexOf('"');
        JavaText t = LiteralDecoder.stringLiteral(src, open, close);
        assertThat(t.text()).isEqualTo("a\tb\"pg_lockA");
        assertThat(at(t, "pg_lock")).isEqualTo(src.indexOf("pg_lock"));
        assertThat(at(t, "A")).isEqualTo(src.indexOf("\\u0041"));
    }

    @Test
    void textBlockStripsIncidentalIndentationAndMapsEachLine() {
        String src =
                "class A {\n  String s = \"\"\"\n      SELECT 1\n        FROM t   \n      WHERE pg_try_advisory_lock(id)\n      \"\"\";\n}\n";
        int open = src.indexOf("\"\"\"");
        int close = src.lastIndexOf("\"\"\"");
        JavaText t = LiteralDecoder.textBlock(src, open, close);
        assertThat(t.text()).isEqualTo("SELECT 1\n  FROM t\nWHERE pg_try_advisory_lock(id)\n");
        SourceFile f = new SourceFile("A.java", src);
        int off = at(t, "pg_try");
        assertThat(f.lineOf(off)).isEqualTo(5);
        assertThat(f.columnOf(off)).isEqualTo(13);
    }

    @Test
    void textBlockWithCrlfTabsAndLineContinuation() {
        String src = "s = \"\"\"\r\n\tSELECT \\\r\n\tpg_advisory_lock(1)\"\"\";";
        int open = src.indexOf("\"\"\"");
        int close = src.lastIndexOf("\"\"\"");
        JavaText t = LiteralDecoder.textBlock(src, open, close);
        assertThat(t.text()).isEqualTo("SELECT pg_advisory_lock(1)");
        SourceFile f = new SourceFile("A.java", src);
        int off = at(t, "pg_advisory");
        assertThat(f.lineOf(off)).isEqualTo(3);
        assertThat(f.columnOf(off)).isEqualTo(2);
    }

    @Test
    void textBlockSpaceEscapeAndBlankLines() {
        String src = "s = \"\"\"\n    a\\s\n\n    b\n    \"\"\";";
        JavaText t = LiteralDecoder.textBlock(src, src.indexOf("\"\"\""), src.lastIndexOf("\"\"\""));
        assertThat(t.text()).isEqualTo("a \n\nb\n");
    }
}
