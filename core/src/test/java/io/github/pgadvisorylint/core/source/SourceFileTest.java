package io.github.pgadvisorylint.core.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SourceFileTest {

    @Test
    void linesEndAtLfCrlfAndLoneCr() {
        SourceFile f = new SourceFile("a.sql", "a\nb\r\nc\rd");
        assertThat(f.lineCount()).isEqualTo(4);
        assertThat(f.lineOf(f.text().indexOf('d'))).isEqualTo(4);
        assertThat(f.columnOf(f.text().indexOf('c'))).isEqualTo(1);
        assertThat(f.lineText(2)).isEqualTo("b");
        assertThat(f.offsetOf(3, 1)).isEqualTo(f.text().indexOf('c'));
    }

    @Test
    void columnsCountUtf16CodeUnitsAndTabsAsOne() {
        SourceFile f = new SourceFile("a.java", "\t\uD83D\uDE00x");
        assertThat(f.columnOf(3)).isEqualTo(4);
        assertThat(f.region(3, 4).startColumn()).isEqualTo(4);
    }

    @Test
    void decoderHandlesBomsAndInvalidUtf8() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a'};
        assertThat(SourceDecoder.decode(bom).text()).isEqualTo("a");
        byte[] utf16 = "\uFEFFhi".getBytes(StandardCharsets.UTF_16BE);
        assertThat(SourceDecoder.decode(utf16).text()).isEqualTo("hi");
        assertThat(SourceDecoder.isUtf16(utf16)).isTrue();
        SourceDecoder.Decoded latin = SourceDecoder.decode(new byte[] {'c', (byte) 0xE9});
        assertThat(latin.lossy()).isTrue();
        assertThat(latin.text()).isEqualTo("c\u00E9");
    }
}
