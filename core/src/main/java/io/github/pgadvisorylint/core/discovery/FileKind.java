package io.github.pgadvisorylint.core.discovery;

import java.util.Locale;

/** The kinds of file the analyzer reads (DESIGN.md, "Data flow", step 1). */
public enum FileKind {
    /** {@code *.java}. */
    JAVA,
    /** {@code *.sql}. */
    SQL,
    /**
     * Configuration that may hold pooling evidence: {@code *.properties}, {@code *.yml}, {@code *.yaml},
     * {@code *.ini}, {@code *.conf}, {@code *.cfg}, {@code .env}, {@code *.env}, {@code .env.*}, {@code *.xml}.
     */
    CONFIG;

    /**
     * @param fileName a file's name without directories
     * @return its kind, or null when the analyzer does not read such files
     */
    public static FileKind of(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".java")) {
            return JAVA;
        }
        if (n.endsWith(".sql")) {
            return SQL;
        }
        if (n.endsWith(".properties")
                || n.endsWith(".yml")
                || n.endsWith(".yaml")
                || n.endsWith(".ini")
                || n.endsWith(".conf")
                || n.endsWith(".cfg")
                || n.equals(".env")
                || n.endsWith(".env")
                || n.startsWith(".env.")
                || n.endsWith(".xml")) {
            return CONFIG;
        }
        return null;
    }
}
