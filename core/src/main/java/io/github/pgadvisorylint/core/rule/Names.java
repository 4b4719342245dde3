package io.github.pgadvisorylint.core.rule;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" suggestions for misspelt rule ids and configuration keys. */
public final class Names {

    private Names() {}

    /**
     * @param wrong     what the user wrote
     * @param candidates the valid names
     * @return the candidate equal to {@code wrong} ignoring case and punctuation ({@code LockInLimitQuery}
     *     for {@code lock-in-limit-query}), else the one within Levenshtein distance 3 that is closest
     *     (first in iteration order on ties), else null
     */
    public static String closest(String wrong, Collection<String> candidates) {
        String squashed = squash(wrong);
        String best = null;
        int bestDistance = 4;
        for (String c : candidates) {
            if (squash(c).equals(squashed)) {
                return c;
            }
            int d = distance(wrong.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        return best;
    }

    private static String squash(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
