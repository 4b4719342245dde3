package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.diagnostic.Severity;
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
 * @param tags             SARIF {@code properties.tags}, e.g. {@code correctness}, {@code concurrency};
 *                         never {@code security} (see {@link #SECURITY_TAG})
 * @param enabledByDefault false for a rule that runs only when the configuration switches it on
 *                         ({@code rules: {id: on}} or a severity): an audit whose findings are a design
 *                         choice in most code, not a defect
 * @param precision        how often its findings are true: SARIF {@code properties.precision}
 */
public record RuleDescriptor(
        String id,
        String name,
        Severity defaultSeverity,
        String shortDescription,
        String fullDescription,
        String helpMarkdown,
        List<String> tags,
        boolean enabledByDefault,
        Precision precision) {

    /**
     * The tag GitHub code scanning reads as "a security query": with it (and a
     * {@code security-severity}) alerts are filed as security alerts. Advisory-lock misuse is a
     * correctness and reliability defect, so no rule may carry it.
     */
    public static final String SECURITY_TAG = "security";

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
        if (tags.stream().anyMatch(t -> t.equalsIgnoreCase(SECURITY_TAG))) {
            throw new IllegalArgumentException("rule " + id + " must not be tagged " + SECURITY_TAG
                    + ": code scanning would file its findings as security alerts");
        }
        Objects.requireNonNull(precision, "precision");
    }

    /**
     * A rule of {@link Precision#MEDIUM} precision; fields as in the canonical constructor.
     *
     * @param id               kebab-case id
     * @param name             PascalCase name
     * @param defaultSeverity  default severity
     * @param shortDescription one sentence
     * @param fullDescription  a paragraph
     * @param helpMarkdown     the documentation page
     * @param tags             SARIF tags
     * @param enabledByDefault false for a rule that runs only when switched on
     */
    public RuleDescriptor(
            String id,
            String name,
            Severity defaultSeverity,
            String shortDescription,
            String fullDescription,
            String helpMarkdown,
            List<String> tags,
            boolean enabledByDefault) {
        this(
                id,
                name,
                defaultSeverity,
                shortDescription,
                fullDescription,
                helpMarkdown,
                tags,
                enabledByDefault,
                Precision.MEDIUM);
    }

    /**
     * A rule that runs unless the configuration switches it off, of {@link Precision#MEDIUM} precision;
     * fields as in the canonical constructor.
     */
    public RuleDescriptor(
            String id,
            String name,
            Severity defaultSeverity,
            String shortDescription,
            String fullDescription,
            String helpMarkdown,
            List<String> tags) {
        this(id, name, defaultSeverity, shortDescription, fullDescription, helpMarkdown, tags, true, Precision.MEDIUM);
    }

    /**
     * @param severity the severity to show as the default
     * @return this descriptor with another default severity (a configuration override), all else kept
     */
    public RuleDescriptor withDefaultSeverity(Severity severity) {
        return new RuleDescriptor(
                id, name, severity, shortDescription, fullDescription, helpMarkdown, tags, enabledByDefault, precision);
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
