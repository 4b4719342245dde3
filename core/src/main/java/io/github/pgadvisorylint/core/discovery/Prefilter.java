package io.github.pgadvisorylint.core.discovery;

/**
 * The cheap text search that keeps parsing proportional to the files that matter (DESIGN.md "Data
 * flow", step 2): a file is a candidate when its bytes contain {@code advisory} in any letter case.
 * Searches bytes without decoding; works for every ASCII-compatible encoding.
 */
public final class Prefilter {

    private static final byte[] WORD = {'a', 'd', 'v', 'i', 's', 'o', 'r', 'y'};

    private Prefilter() {}

    /**
     * @param bytes a file's content
     * @return true when the content mentions {@code advisory}, case-insensitively
     */
    public static boolean mentionsAdvisory(byte[] bytes) {
        int last = bytes.length - WORD.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if ((bytes[i] | 0x20) != 'a') {
                continue;
            }
            for (int j = 1; j < WORD.length; j++) {
                if ((bytes[i + j] | 0x20) != WORD[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return mentionsAdvisoryThroughEscapes(bytes);
    }

    /**
     * The word written with Java unicode escapes (a backslash, {@code u} and four hex digits in place of a
     * letter of {@code advisory}), which javac and the Java
     * front end decode before anything else (JLS 3.3). Only content with a backslash followed by
     * {@code u} is decoded, so files without one cost nothing more; in a SQL file such text is no
     * escape, and the file is merely analysed and found to hold no lock call.
     */
    private static boolean mentionsAdvisoryThroughEscapes(byte[] bytes) {
        StringBuilder decoded = null;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\\' && i + 1 < bytes.length && bytes[i + 1] == 'u') {
                int j = i + 1;
                while (j < bytes.length && bytes[j] == 'u') {
                    j++;
                }
                int value = j + 4 <= bytes.length ? hex(bytes, j) : -1;
                if (value >= 0) {
                    if (decoded == null) {
                        decoded = new StringBuilder(bytes.length);
                        for (int k = 0; k < i; k++) {
                            decoded.append((char) (bytes[k] & 0xFF));
                        }
                    }
                    decoded.append((char) value);
                    i = j + 3;
                    continue;
                }
            }
            if (decoded != null) {
                decoded.append((char) (bytes[i] & 0xFF));
            }
        }
        return decoded != null && mentionsAdvisory(decoded);
    }

    /** @return the value of the four hex digits at {@code at}, or -1 */
    private static int hex(byte[] bytes, int at) {
        int value = 0;
        for (int k = at; k < at + 4; k++) {
            int d = Character.digit((char) (bytes[k] & 0xFF), 16);
            if (d < 0) {
                return -1;
            }
            value = value * 16 + d;
        }
        return value;
    }

    /**
     * @param text decoded content (used for UTF-16 files)
     * @return true when the text mentions {@code advisory}, case-insensitively
     */
    public static boolean mentionsAdvisory(CharSequence text) {
        int last = text.length() - WORD.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if ((text.charAt(i) | 0x20) != 'a') {
                continue;
            }
            for (int j = 1; j < WORD.length; j++) {
                if ((text.charAt(i + j) | 0x20) != WORD[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
