package io.github.pgadvisorylint.core.rule;

import java.util.List;
import java.util.Objects;

/**
 * A rule's metadata, as SARIF 2.1.0 {@code reportingDescriptor} (section 3.49) needs it.
 *
 * @param id               stable kebab-case id, e.g. {@code lock-in-limit-query}
 * @param name             PascalCase form of the id, e.g. {@code LockInLimitQuery}
 * @param defaultSeverity  the severity of its most common finding
 * @param shortDescription one sentence, plain text
 * @param fullDescription  a paragraph, plain text
 * @param helpMarkdown     the rule's documentation page (what, why, bad, good, how to suppress)
 * @param tags             SARIF {@code properties.tags}, e.g. {@code correctness}, {@code concurrency}
 * @param enabledByDefault false for a rule that runs only when the configuration switches it on
 *                         ({@code rules: {id: on}} or a severity): an audit whose findings are a design
 *                         choice in most code, not a defect
 */
public record RuleDescriptor(String id, String name, Severity defaultSeverity, String shortDescription,
                             String fullDescription, String helpMarkdown, List<String> tags,
                             boolean enabledByDefault) {

    /** Checks fields; throws {@link IllegalArgumentException} when the id is not kebab-case. */
    public RuleDescriptor {
        Objects.requireNonNull(id, "id");
        if (!id.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("rule id must be kebab-case: " + id);
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultSeverity, "defaultSeverity");
        Objects.requireNonNull(shortDescription, "shortDescription");
        Objects.requireNonNull(fullDescription, "fullDescription");
        Objects.requireNonNull(helpMarkdown, "helpMarkdown");
        tags = List.copyOf(tags);
    }

    /** A rule that runs unless the configuration switches it off; fields as in the canonical constructor. */
    public RuleDescriptor(String id, String name, Severity defaultSeverity, String shortDescription,
                          String fullDescription, String helpMarkdown, List<String> tags) {
        this(id, name, defaultSeverity, shortDescription, fullDescription, helpMarkdown, tags, true);
    }

    /**
     * @param severity the severity to show as the default
     * @return this descriptor with another default severity (a configuration override), all else kept
     */
    public RuleDescriptor withDefaultSeverity(Severity severity) {
        return new RuleDescriptor(id, name, severity, shortDescription, fullDescription, helpMarkdown, tags,
                enabledByDefault);
    }

    /**
     * @param id a kebab-case id
     * @return its PascalCase form: {@code lock-in-limit-query} gives {@code LockInLimitQuery}
     */
    public static String pascalCase(String id) {
        StringBuilder sb = new StringBuilder();
        for (String part : id.split("-", -1)) {
            if (!part.isEmpty()) {
                sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return sb.toString();
    }
}
