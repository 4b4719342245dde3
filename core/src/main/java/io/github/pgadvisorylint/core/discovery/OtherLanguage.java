package io.github.pgadvisorylint.core.discovery;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JVM languages whose files the tool does not read, though they can hold the same lock calls as Java:
 * discovery counts them under the scanned roots so the reports can say how much was not analysed,
 * instead of skipping them without a word. Declared in alphabetical order, the order reports use.
 */
public enum OtherLanguage {

    /** {@code *.groovy}. */
    GROOVY("Groovy", List.of(".groovy")),

    /** {@code *.kt} and Kotlin scripts {@code *.kts} (Gradle build scripts among them). */
    KOTLIN("Kotlin", List.of(".kt", ".kts")),

    /** {@code *.scala}. */
    SCALA("Scala", List.of(".scala"));

    /** What the sentence about unanalysed files says the tool reads instead. */
    public static final String READS = "the tool reads Java and SQL";

    private final String displayName;

    @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable
    private final List<String> extensions;

    OtherLanguage(String displayName, List<String> extensions) {
        this.displayName = displayName;
        this.extensions = extensions;
    }

    /** @return the language's name as people write it, e.g. {@code Kotlin} */
    public String displayName() {
        return displayName;
    }

    /**
     * @param fileName a file's name without directories
     * @return its language, or null when it is none of these (any case of the extension)
     */
    public static OtherLanguage of(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        for (OtherLanguage l : values()) {
            for (String ext : l.extensions) {
                if (n.endsWith(ext) && n.length() > ext.length()) {
                    return l;
                }
            }
        }
        return null;
    }

    /**
     * @param counts files per language; languages with no file may be missing or zero
     * @return e.g. {@code 3 Kotlin files and 1 Scala file were not analysed (the tool reads Java and SQL)},
     *     languages in declaration order; empty when there is no file
     */
    public static String sentence(Map<OtherLanguage, Integer> counts) {
        StringBuilder parts = new StringBuilder();
        int total = 0;
        int listed = 0;
        int languages =
                (int) counts.values().stream().filter(c -> c != null && c > 0).count();
        for (OtherLanguage l : values()) {
            Integer c = counts.get(l);
            if (c == null || c <= 0) {
                continue;
            }
            listed++;
            parts.append(listed == 1 ? "" : listed == languages ? " and " : ", ")
                    .append(c)
                    .append(' ')
                    .append(l.displayName)
                    .append(c == 1 ? " file" : " files");
            total += c;
        }
        if (total == 0) {
            return "";
        }
        return parts + (total == 1 ? " was" : " were") + " not analysed (" + READS + ")";
    }
}
