package io.github.pgadvisorylint.core.report;

import java.util.Locale;

/** The report formats the tool writes, with their command-line names. */
public enum ReportFormat {
    /** Compiler-style lines for people and editors; see {@link TextReporter}. */
    TEXT,
    /** SARIF 2.1.0 for GitHub code scanning and IDE viewers; see {@link SarifReporter}. */
    SARIF,
    /** The tool's own JSON document; see {@link JsonReporter}. */
    JSON,
    /** GitHub Actions workflow commands ({@code ::error file=...::...}); see {@link GithubReporter}. */
    GITHUB,
    /** Checkstyle XML for reviewdog, Jenkins Warnings and GitLab converters; see {@link CheckstyleReporter}. */
    CHECKSTYLE,
    /** A Markdown summary for {@code $GITHUB_STEP_SUMMARY} and pull-request comments; see {@link MarkdownReporter}. */
    MARKDOWN,
    /** One self-contained HTML page for a browser or a CI artifact; see {@link HtmlReporter}. */
    HTML;

    /** The allowed names, for messages. */
    public static final String ALLOWED = "text, sarif, json, github, checkstyle, markdown, html";

    /** @return the lower-case name used on the command line and in messages, e.g. {@code text}, {@code checkstyle} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the name shown to users in the text summary: {@code Text}, {@code SARIF}, {@code JSON}, {@code GitHub annotations}, {@code Checkstyle XML}, {@code Markdown}, {@code HTML} */
    public String displayName() {
        return switch (this) {
            case TEXT -> "Text";
            case GITHUB -> "GitHub annotations";
            case CHECKSTYLE -> "Checkstyle XML";
            case MARKDOWN -> "Markdown";
            case HTML -> "HTML";
            default -> name();
        };
    }

    /**
     * @param options how to write
     * @return a reporter of this format
     */
    public Reporter reporter(ReportOptions options) {
        return switch (this) {
            case TEXT -> new TextReporter(options.summaryNotes(), options.color());
            case SARIF -> new SarifReporter(options.showSuppressed(), options.configFile());
            case JSON -> new JsonReporter(options.showSuppressed());
            case GITHUB -> new GithubReporter();
            case CHECKSTYLE -> new CheckstyleReporter();
            case MARKDOWN -> new MarkdownReporter();
            case HTML -> new HtmlReporter();
        };
    }

    /**
     * @param word one of {@link #ALLOWED}, any case
     * @return the format
     * @throws IllegalArgumentException for any other word, naming the allowed ones
     */
    public static ReportFormat parse(String word) {
        for (ReportFormat f : values()) {
            if (f.id().equalsIgnoreCase(word.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + word + "' (allowed: " + ALLOWED + ")");
    }
}
