package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.facts.Suppression;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.SuppressionUse;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs rules over the model and turns what they report into sorted, de-duplicated findings with
 * line-independent fingerprints: SHA-256 over rule id, file, code shape and the occurrence index of
 * that shape in the file (SARIF 2.1.0 §3.27.17 {@code partialFingerprints}). Applies the severity
 * overrides of the configuration and the in-source suppressions, and records what each suppression
 * silenced for the rules of phase {@link Rule.Phase#AFTER_FINDINGS}.
 */
final class FindingCollector {

    /** A finding before fingerprinting. */
    private record Raw(
            String ruleId,
            Severity severity,
            String message,
            SourceRegion region,
            List<RelatedLocation> related,
            String shape,
            List<RelatedLocation> path) {}

    /**
     * The findings of one analysis.
     *
     * @param active     findings no suppression covers, sorted
     * @param suppressed findings an in-source suppression covers, each with its
     *                   {@link Finding#suppression()}, sorted
     */
    record Outcome(List<Finding> active, List<Finding> suppressed) {}

    private final LockModel model;
    private final long ruleLimitNanos;
    private final SortedSet<String> knownRuleIds;
    private final Map<String, Severity> severityOverrides;
    private Set<Raw> raws = new LinkedHashSet<>();
    private List<SuppressionUse> uses = List.of();

    /**
     * @param model             the lock model the rules read
     * @param knownRuleIds      every installed rule id, also of rules that do not run
     * @param severityOverrides rule id to the severity every finding of that rule gets
     * @param ruleLimit         how long one rule may run before the analysis stops
     */
    FindingCollector(
            LockModel model, Set<String> knownRuleIds, Map<String, Severity> severityOverrides, Duration ruleLimit) {
        this.model = model;
        this.ruleLimitNanos = ruleLimit.toNanos();
        this.knownRuleIds = Collections.unmodifiableSortedSet(new TreeSet<>(knownRuleIds));
        this.severityOverrides = Map.copyOf(severityOverrides);
    }

    /**
     * Runs one rule on a thread of its own and keeps what it reported. A rule that throws gives a
     * {@code rule-failure} error (what it reported before is kept).
     *
     * @throws TimeLimitExceededException when the rule runs past the time limit: its thread is interrupted
     *     and left to end as a daemon (a loop cannot be stopped from outside), and the analysis stops, so
     *     that what a run reports never depends on the machine's speed
     */
    void runRule(Rule rule, List<Notification> notifications) {
        String id = rule.descriptor().id();
        // the rule's own list: an abandoned rule that goes on reporting never reaches the findings
        List<Raw> reported = Collections.synchronizedList(new ArrayList<>());
        // one result per call: the forms one SQL text can take (built from flags: exclusive or shared, one
        // key or two) and the operations of one helper call are sites at one region; the first reported
        // stands for them all (one alert per bug)
        Set<SourceRegion> siteRegions = Collections.synchronizedSet(new HashSet<>());
        RuleContext context = new RuleContext() {
            @Override
            public LockModel model() {
                return model;
            }

            @Override
            public void report(Severity severity, LockSite site, String message, List<RelatedLocation> related) {
                reportPath(severity, site, site.region(), null, message, related, List.of());
            }

            @Override
            public void report(
                    Severity severity,
                    SourceRegion region,
                    String shape,
                    String message,
                    List<RelatedLocation> related) {
                add(severity, region, shape, message, related, List.of());
            }

            @Override
            public void reportPath(
                    Severity severity,
                    LockSite site,
                    SourceRegion region,
                    String shape,
                    String message,
                    List<RelatedLocation> related,
                    List<RelatedLocation> path) {
                if (!site.region().equals(region)) {
                    add(severity, region, shape, message, related, path);
                    return;
                }
                if (!siteRegions.add(site.region())) {
                    return;
                }
                String method = site.java() == null
                        ? ""
                        : site.java().typeName() + "#" + site.java().methodName();
                add(
                        severity,
                        site.region(),
                        site.function().sqlName() + site.key().canonical() + "@" + method,
                        message,
                        related,
                        path);
            }

            private void add(
                    Severity severity,
                    SourceRegion region,
                    String shape,
                    String message,
                    List<RelatedLocation> related,
                    List<RelatedLocation> path) {
                reported.add(new Raw(
                        id,
                        severityOverrides.getOrDefault(id, severity),
                        message,
                        region,
                        List.copyOf(related),
                        shape,
                        List.copyOf(path)));
            }

            @Override
            public List<SuppressionUse> suppressionUses() {
                return uses;
            }

            @Override
            public SortedSet<String> knownRuleIds() {
                return knownRuleIds;
            }
        };
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(
                null,
                () -> {
                    try {
                        rule.check(context);
                    } catch (RuntimeException | StackOverflowError e) {
                        failure[0] = e;
                    }
                },
                "pg-advisory-lint-rule-" + id,
                AnalysisRun.WORKER_STACK_BYTES);
        worker.setDaemon(true);
        worker.start();
        try {
            worker.join(Math.max(1, ruleLimitNanos / 1_000_000));
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("analysis interrupted", e);
        }
        if (worker.isAlive()) {
            worker.interrupt();
            throw new TimeLimitExceededException("rule " + id, Duration.ofNanos(ruleLimitNanos));
        }
        if (failure[0] != null) {
            notifications.add(new Notification(
                    Severity.ERROR,
                    "rule-failure",
                    "rule " + id + " failed: " + failure[0],
                    SourceRegion.line(".", 1)));
        }
        synchronized (reported) {
            raws.addAll(reported);
        }
    }

    /**
     * Fingerprints what the model rules reported, applies the suppressions, then runs the rules that
     * read suppression facts and applies to their findings the suppressions that name them.
     *
     * @param suppressions  in-source suppressions of every analysed file
     * @param lateRules     rules of phase {@link Rule.Phase#AFTER_FINDINGS}, in id order
     * @param activeRuleIds ids of every rule that ran (both phases)
     * @param notifications where a failing rule is reported
     * @return the active and the suppressed findings
     */
    Outcome findings(
            List<Suppression> suppressions,
            List<Rule> lateRules,
            Set<String> activeRuleIds,
            List<Notification> notifications) {
        List<Finding> first = fingerprint(raws);
        Map<Suppression, Integer> silenced = new HashMap<>();
        Map<Suppression, Set<String>> silencedIds = new HashMap<>();
        List<Finding> active = new ArrayList<>();
        List<Finding> suppressed = new ArrayList<>();
        for (Finding f : first) {
            Suppression cover = null;
            for (Suppression s : suppressions) {
                if (s.covers(f)) {
                    silenced.merge(s, 1, Integer::sum);
                    silencedIds.computeIfAbsent(s, k -> new TreeSet<>()).add(f.ruleId());
                    cover = cover == null ? s : cover;
                }
            }
            (cover == null ? active : suppressed).add(cover == null ? f : f.withSuppression(why(cover)));
        }
        List<Rule> late = lateRules.stream()
                .filter(r -> activeRuleIds.contains(r.descriptor().id()))
                .toList();
        if (!late.isEmpty()) {
            List<SuppressionUse> collected = new ArrayList<>();
            for (Suppression s : suppressions) {
                Set<String> unknown = new TreeSet<>();
                Set<String> unused = new TreeSet<>();
                Set<String> hit = silencedIds.getOrDefault(s, Set.of());
                for (String id : s.ruleIds()) {
                    if (!knownRuleIds.contains(id)) {
                        unknown.add(id);
                    } else if (activeRuleIds.contains(id) && !hit.contains(id)) {
                        unused.add(id);
                    }
                }
                collected.add(new SuppressionUse(
                        s.location(), s.form(), s.ruleIds(), unknown, unused, silenced.getOrDefault(s, 0)));
            }
            collected.sort(Comparator.comparing(SuppressionUse::location));
            uses = List.copyOf(collected);
            raws = new LinkedHashSet<>();
            for (Rule r : late) {
                runRule(r, notifications);
            }
            for (Finding f : fingerprint(raws)) {
                Suppression cover = suppressions.stream()
                        .filter(s -> s.ruleIds().contains(f.ruleId()) && s.covers(f))
                        .findFirst()
                        .orElse(null);
                (cover == null ? active : suppressed).add(cover == null ? f : f.withSuppression(why(cover)));
            }
        }
        active.sort(ORDER);
        suppressed.sort(ORDER);
        return new Outcome(active, suppressed);
    }

    private static final Comparator<Finding> ORDER = Comparator.comparing(Finding::region)
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::message)
            .thenComparing(Finding::fingerprint);

    private static FindingSuppression why(Suppression s) {
        return new FindingSuppression(FindingSuppression.Kind.IN_SOURCE, s.reason(), s.location());
    }

    private static List<Finding> fingerprint(Set<Raw> raws) {
        List<Raw> sorted = new ArrayList<>(raws);
        sorted.sort(Comparator.comparing(Raw::region).thenComparing(Raw::ruleId).thenComparing(Raw::message));
        Map<String, Integer> occurrences = new TreeMap<>();
        List<Finding> out = new ArrayList<>();
        for (Raw r : sorted) {
            String base = r.ruleId + "\u0000" + r.region.path() + "\u0000" + r.shape;
            int index = occurrences.merge(base, 1, Integer::sum) - 1;
            out.add(new Finding(
                    r.ruleId,
                    r.severity,
                    r.message,
                    r.region,
                    r.related,
                    sha256(base + "\u0000" + index).substring(0, 32),
                    null,
                    r.path));
        }
        return out;
    }

    private static String sha256(String s) {
        return AnalysisRun.sha256(s.getBytes(StandardCharsets.UTF_8));
    }
}
