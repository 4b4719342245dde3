package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import org.junit.jupiter.api.Test;

/** {@link UnicodeEscapes}: JLS §3.3 decoding, with regions mapped back to the file as written. */
class UnicodeEscapesTest {

    @Test
    @SuppressWarnings("UnicodeEscape") // the escapes are what this test reads
    void escapesAreDecodedAndRegionsPointIntoTheWrittenText() {
        String written = "class A {\n  String s = \\u0022ab\\uuu0063\\u0022;\n}\n";
        SourceFile decoded = UnicodeEscapes.decode(new SourceFile("A.java", written));
        assertThat(decoded.text()).isEqualTo("class A {\n  String s = \"abc\";\n}\n");
        int c = decoded.text().indexOf('c', 12);
        // "c" was written as \uuu0063: the region spans the eight chars of the escape
        assertThat(decoded.region(c, c + 1)).isEqualTo(new SourceRegion("A.java", 2, 22, 2, 30));
        assertThat(decoded.lineOf(c)).isEqualTo(2);
        assertThat(decoded.columnOf(c)).isEqualTo(22);
    }

    @Test
    void anEscapedBackslashStartsNoEscapeAndAFileWithoutEscapesIsItself() {
        SourceFile written = new SourceFile("B.java", "String s = \"\\\\u0041\";");
        assertThat(UnicodeEscapes.decode(written)).isSameAs(written);
        SourceFile plain = new SourceFile("C.java", "class C {}");
        assertThat(UnicodeEscapes.decode(plain)).isSameAs(plain);
        SourceFile notHex = new SourceFile("D.java", "// \\uZZZZ");
        assertThat(UnicodeEscapes.decode(notHex)).isSameAs(notHex);
    }
}
