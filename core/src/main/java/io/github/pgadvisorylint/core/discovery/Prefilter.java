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
        return false;
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
