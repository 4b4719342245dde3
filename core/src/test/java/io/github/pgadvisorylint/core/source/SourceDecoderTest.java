package io.github.pgadvisorylint.core.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link SourceDecoder}: UTF-16 without a byte-order mark, and what is not UTF-16. */
class SourceDecoderTest {

    private static final String JAVA = "class A {\n  // pg_advisory_lock\n}\n";

    @Test
    void utf16WithoutAMarkIsRecognisedInBothByteOrders() {
        assertThat(SourceDecoder.decode(JAVA.getBytes(StandardCharsets.UTF_16LE)))
                .isEqualTo(new SourceDecoder.Decoded(JAVA, "UTF-16LE", false));
        assertThat(SourceDecoder.decode(JAVA.getBytes(StandardCharsets.UTF_16BE)))
                .isEqualTo(new SourceDecoder.Decoded(JAVA, "UTF-16BE", false));
        assertThat(SourceDecoder.isUtf16(JAVA.getBytes(StandardCharsets.UTF_16LE)))
                .isTrue();
    }

    @Test
    void binaryDataAndUtf8AreNotUtf16() {
        byte[] random = new byte[4096];
        new Random(19).nextBytes(random);
        assertThat(SourceDecoder.isUtf16(random)).isFalse();
        byte[] withNulChars = ("ab" + "\0\0" + "cd").getBytes(StandardCharsets.UTF_16LE);
        assertThat(SourceDecoder.isUtf16(withNulChars))
                .as("a U+0000 unit is binary")
                .isFalse();
        assertThat(SourceDecoder.decode(JAVA.getBytes(StandardCharsets.UTF_8)).charset())
                .isEqualTo("UTF-8");
        assertThat(SourceDecoder.isUtf16("ab".getBytes(StandardCharsets.UTF_16LE)))
                .as("too short to tell")
                .isFalse();
    }

    /**
     * Found by the fourth adversarial pass (issue 27): {@code FF FE} before bytes of odd length that are
     * not UTF-16 was taken for a mark; the file decoded to noise and its lock calls vanished with no
     * note. Such a mark is no mark: the bytes are read as ISO-8859-1 (not UTF-8 either) and said lossy.
     */
    @Test
    void aMarkOnBytesThatAreNotUtf16IsNoMark() {
        byte[] fake = "\u00ff\u00fe-- x\nSELECT \u00e9\u00e9 pg_advisory_lock(2), pg_advisory_lock(3);\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        SourceDecoder.Decoded d = SourceDecoder.decode(fake);
        assertThat(d.lossy()).isTrue();
        assertThat(d.charset()).isEqualTo("ISO-8859-1");
        assertThat(d.text()).contains("pg_advisory_lock(2), pg_advisory_lock(3)");
        byte[] real = new byte[] {(byte) 0xFF, (byte) 0xFE, 'a', 0, 'b', 0};
        assertThat(SourceDecoder.decode(real)).isEqualTo(new SourceDecoder.Decoded("ab", "UTF-16LE", false));
    }
}
