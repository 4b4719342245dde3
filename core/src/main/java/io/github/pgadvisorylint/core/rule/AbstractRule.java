package io.github.pgadvisorylint.core.rule;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Base class for rules: builds the descriptor and loads the documentation page from the classpath
 * resource {@code docs/<rule-id>.md} next to the rule class's package root.
 */
public abstract class AbstractRule implements Rule {

    private final RuleDescriptor descriptor;

    /**
     * @param id               kebab-case rule id
     * @param defaultSeverity  severity of the most common finding
     * @param shortDescription one sentence
     * @param fullDescription  one paragraph
     * @param tags             SARIF tags
     * @throws IllegalStateException when the documentation page {@code /docs/<id>.md} is missing
     */
    protected AbstractRule(
            String id, Severity defaultSeverity, String shortDescription, String fullDescription, List<String> tags) {
        this(id, defaultSeverity, shortDescription, fullDescription, tags, true);
    }

    /**
     * @param id               kebab-case rule id
     * @param defaultSeverity  severity of the most common finding
     * @param shortDescription one sentence
     * @param fullDescription  one paragraph
     * @param tags             SARIF tags
     * @param enabledByDefault false for a rule that runs only when the configuration switches it on
     * @throws IllegalStateException when the documentation page {@code /docs/<id>.md} is missing
     */
    protected AbstractRule(
            String id,
            Severity defaultSeverity,
            String shortDescription,
            String fullDescription,
            List<String> tags,
            boolean enabledByDefault) {
        this(id, defaultSeverity, Precision.MEDIUM, shortDescription, fullDescription, tags, enabledByDefault);
    }

    /**
     * A rule that runs unless the configuration switches it off.
     *
     * @param id               kebab-case rule id
     * @param defaultSeverity  severity of the most common finding
     * @param precision        how often its findings are true, from what the rule rests on
     * @param shortDescription one sentence
     * @param fullDescription  one paragraph
     * @param tags             SARIF tags, never {@code security}
     * @throws IllegalStateException when the documentation page {@code /docs/<id>.md} is missing
     */
    protected AbstractRule(
            String id,
            Severity defaultSeverity,
            Precision precision,
            String shortDescription,
            String fullDescription,
            List<String> tags) {
        this(id, defaultSeverity, precision, shortDescription, fullDescription, tags, true);
    }

    /**
     * @param id               kebab-case rule id
     * @param defaultSeverity  severity of the most common finding
     * @param precision        how often its findings are true, from what the rule rests on
     * @param shortDescription one sentence
     * @param fullDescription  one paragraph
     * @param tags             SARIF tags, never {@code security}
     * @param enabledByDefault false for a rule that runs only when the configuration switches it on
     * @throws IllegalStateException when the documentation page {@code /docs/<id>.md} is missing
     */
    protected AbstractRule(
            String id,
            Severity defaultSeverity,
            Precision precision,
            String shortDescription,
            String fullDescription,
            List<String> tags,
            boolean enabledByDefault) {
        this.descriptor = new RuleDescriptor(
                id,
                RuleDescriptor.pascalCase(id),
                defaultSeverity,
                shortDescription,
                fullDescription,
                loadDoc(getClass(), id),
                tags,
                enabledByDefault,
                precision);
    }

    private static String loadDoc(Class<?> owner, String id) {
        String resource = "/docs/" + id + ".md";
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing documentation page " + resource + " for rule " + id);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public final RuleDescriptor descriptor() {
        return descriptor;
    }

    /** @return this rule's id, for messages */
    protected final String id() {
        return descriptor.id();
    }

    /**
     * Reports a finding of the lock-state analysis at its place:
     * the release for the release kinds, else the acquisition (or the caller's call that took the lock),
     * with the path's other steps as related locations.
     *
     * @param context  the rule's context
     * @param severity the rule's default severity for it (configuration may still change it)
     * @param finding  what the path proves
     * @param message  the plain-text message
     */
    protected static void reportPath(RuleContext context, Severity severity, PathFinding finding, String message) {
        List<RelatedLocation> related = new ArrayList<>();
        for (PathFinding.Step step : finding.steps()) {
            if (!step.region().equals(finding.at())) {
                related.add(new RelatedLocation(step.region(), step.message()));
            }
        }
        LockSite site = finding.release() != null ? finding.release() : finding.acquisition();
        List<RelatedLocation> path = new ArrayList<>();
        for (PathFinding.Step step : finding.steps()) {
            path.add(new RelatedLocation(step.region(), step.message()));
        }
        context.reportPath(
                severity,
                site,
                finding.at(),
                finding.kind().name().toLowerCase(Locale.ROOT) + ":" + site.display(),
                message,
                related,
                path);
    }
}
