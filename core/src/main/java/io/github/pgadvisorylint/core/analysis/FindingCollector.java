package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SourceRegion;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.Rule;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.Severity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs rules over the model and turns what they report into sorted, de-duplicated findings with
 * line-independent fingerprints: SHA-256 over rule id, file, code shape and the occurrence index of
 * that shape in the file (SARIF 2.1.0 §3.27.17 {@code partialFingerprints}).
 */
final class FindingCollector {

    /** A finding before fingerprinting. */
    private record Raw(String ruleId, Severity severity, String message, SourceRegion region,
                       List<RelatedLocation> related, String shape) {
    }

    private final LockModel model;
    private final Set<Raw> raws = new LinkedHashSet<>();

    FindingCollector(LockModel model) {
        this.model = model;
    }

    void runRule(Rule rule, List<Notification> notifications) {
        String id = rule.descriptor().id();
        RuleContext context = new RuleContext() {
            @Override
            public LockModel model() {
                return model;
            }

            @Override
            public void report(Severity severity, LockSite site, String message, List<RelatedLocation> related) {
                String method = site.java() == null ? "" : site.java().typeName() + "#" + site.java().methodName();
                report(severity, site.region(), site.function().sqlName() + site.key().canonical() + "@" + method,
                        message, related);
            }

            @Override
            public void report(Severity severity, SourceRegion region, String shape, String message,
                               List<RelatedLocation> related) {
                raws.add(new Raw(id, severity, message, region, List.copyOf(related), shape));
            }
        };
        try {
            rule.check(context);
        } catch (RuntimeException | StackOverflowError e) {
            notifications.add(new Notification(Severity.ERROR, "rule-failure", "rule " + id + " failed: " + e,
                    SourceRegion.line(".", 1)));
        }
    }

    /**
     * @param suppressions in-source suppressions; findings they cover are left out
     * @return the findings, sorted and fingerprinted
     */
    List<Finding> findings(List<Suppression> suppressions) {
        List<Raw> sorted = new ArrayList<>(raws);
        sorted.sort(Comparator.comparing(Raw::region).thenComparing(Raw::ruleId).thenComparing(Raw::message));
        Map<String, Integer> occurrences = new TreeMap<>();
        List<Finding> out = new ArrayList<>();
        for (Raw r : sorted) {
            String base = r.ruleId + "\u0000" + r.region.path() + "\u0000" + r.shape;
            int index = occurrences.merge(base, 1, Integer::sum) - 1;
            Finding f = new Finding(r.ruleId, r.severity, r.message, r.region, r.related,
                    sha256(base + "\u0000" + index).substring(0, 32));
            if (suppressions.stream().noneMatch(s -> s.covers(f))) {
                out.add(f);
            }
        }
        return out;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
