package io.github.pgadvisorylint.core.source;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns a file's bytes into text: a UTF-8, UTF-16BE or UTF-16LE byte-order mark decides the charset
 * and is dropped; otherwise strict UTF-8, and ISO-8859-1 when the bytes are not valid UTF-8 (every
 * byte sequence decodes, so the scan goes on).
 */
public final class SourceDecoder {

    private SourceDecoder() {
    }

    /**
     * The decoded text and how it was decoded.
     *
     * @param text    the text without a byte-order mark
     * @param charset the charset name used, e.g. {@code UTF-8}
     * @param lossy   true when the bytes were not valid in the charset first tried (UTF-8)
     */
    public record Decoded(String text, String charset, boolean lossy) {
    }

    /**
     * @param bytes the file's content
     * @return the decoded text; never throws
     */
    public static Decoded decode(byte[] bytes) {
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            return utf8(ByteBuffer.wrap(bytes, 3, bytes.length - 3));
        }
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
            return new Decoded(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE), "UTF-16BE", false);
        }
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
            return new Decoded(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE), "UTF-16LE", false);
        }
        return utf8(ByteBuffer.wrap(bytes));
    }

    private static Decoded utf8(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(buffer).toString();
            return new Decoded(text, "UTF-8", false);
        } catch (CharacterCodingException e) {
            return new Decoded(StandardCharsets.ISO_8859_1.decode(copy).toString(), "ISO-8859-1", true);
        }
    }

    /**
     * @param bytes file content
     * @return true when the content starts with a UTF-16 byte-order mark (a byte search for ASCII words fails on it)
     */
    public static boolean isUtf16(byte[] bytes) {
        return bytes.length >= 2 && (((bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF)
                || ((bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE));
    }
}
