package io.github.pgadvisorylint.core.source;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns a file's bytes into text: a UTF-8, UTF-16BE or UTF-16LE byte-order mark decides the charset
 * and is dropped; UTF-16 without a mark is recognised by the NUL bytes of its ASCII characters;
 * otherwise strict UTF-8, and ISO-8859-1 when the bytes are not valid UTF-8 (every byte sequence
 * decodes, so the scan goes on).
 */
public final class SourceDecoder {

    private SourceDecoder() {}

    /**
     * The decoded text and how it was decoded.
     *
     * @param text    the text without a byte-order mark
     * @param charset the charset name used, e.g. {@code UTF-8}
     * @param lossy   true when the bytes were not valid in the charset first tried (the byte-order mark's,
     *                else UTF-8)
     */
    public record Decoded(String text, String charset, boolean lossy) {}

    /**
     * @param bytes the file's content
     * @return the decoded text; never throws
     */
    public static Decoded decode(byte[] bytes) {
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            return utf8(ByteBuffer.wrap(bytes, 3, bytes.length - 3));
        }
        // a UTF-16 mark on bytes that are not UTF-16 (an odd length, a lone surrogate) is no mark: the
        // bytes are read as UTF-8, else ISO-8859-1, and said to be lossy, so no lock call vanishes in
        // silence behind two bytes that happen to look like a mark
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
            String text = strict(ByteBuffer.wrap(bytes, 2, bytes.length - 2), StandardCharsets.UTF_16BE);
            return text != null ? new Decoded(text, "UTF-16BE", false) : lossy(utf8(ByteBuffer.wrap(bytes)));
        }
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
            String text = strict(ByteBuffer.wrap(bytes, 2, bytes.length - 2), StandardCharsets.UTF_16LE);
            return text != null ? new Decoded(text, "UTF-16LE", false) : lossy(utf8(ByteBuffer.wrap(bytes)));
        }
        switch (utf16WithoutBom(bytes)) {
            case 1:
                return new Decoded(new String(bytes, StandardCharsets.UTF_16LE), "UTF-16LE", false);
            case 2:
                return new Decoded(new String(bytes, StandardCharsets.UTF_16BE), "UTF-16BE", false);
            default:
                return utf8(ByteBuffer.wrap(bytes));
        }
    }

    /** How many leading bytes {@link #utf16WithoutBom} looks at. */
    private static final int SNIFF_BYTES = 1024;

    /**
     * Recognises UTF-16 text written without a byte-order mark by its NUL pattern: source code is
     * mostly ASCII, which UTF-16LE writes as a letter then a NUL, UTF-16BE as a NUL then a letter. At
     * least three quarters of the code units among the first {@value #SNIFF_BYTES} bytes (at least 4
     * units) must be such ASCII ones, all in the same byte order, and none may be U+0000 (text holds no
     * NUL character, binary data does).
     *
     * @return 1 for UTF-16LE, 2 for UTF-16BE, 0 for neither
     */
    static int utf16WithoutBom(byte[] bytes) {
        int units = Math.min(bytes.length, SNIFF_BYTES) / 2;
        if (units < 4) {
            return 0;
        }
        int little = 0;
        int big = 0;
        for (int u = 0; u < units; u++) {
            byte first = bytes[2 * u];
            byte second = bytes[2 * u + 1];
            if (first == 0 && second == 0) {
                return 0;
            }
            if (second == 0 && first > 0) {
                little++;
            } else if (first == 0 && second > 0) {
                big++;
            }
        }
        if (4 * little >= 3 * units && big == 0) {
            return 1;
        }
        if (4 * big >= 3 * units && little == 0) {
            return 2;
        }
        return 0;
    }

    private static Decoded utf8(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        String text = strict(buffer, StandardCharsets.UTF_8);
        return text != null
                ? new Decoded(text, "UTF-8", false)
                : new Decoded(StandardCharsets.ISO_8859_1.decode(copy).toString(), "ISO-8859-1", true);
    }

    /** @return the bytes decoded in the charset, or null when they are not valid in it */
    private static String strict(ByteBuffer buffer, Charset charset) {
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(buffer)
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static Decoded lossy(Decoded d) {
        return new Decoded(d.text(), d.charset(), true);
    }

    /**
     * @param bytes file content
     * @return true when the content starts with a UTF-16 byte-order mark, or is UTF-16 without one (see
     *     {@link #decode}); a byte search for ASCII words fails on such content
     */
    public static boolean isUtf16(byte[] bytes) {
        return (bytes.length >= 2
                        && (((bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF)
                                || ((bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE)))
                || utf16WithoutBom(bytes) != 0;
    }
}
