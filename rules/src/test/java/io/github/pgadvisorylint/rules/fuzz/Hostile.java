package io.github.pgadvisorylint.rules.fuzz;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.OtherLanguage;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleDescriptor;
import io.github.pgadvisorylint.core.rule.RuleRegistry;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Analysis results whose text a scanned repository controls (messages quoting code, file names, rule
 * ids of plugged-in rules, justifications) holding arbitrary Unicode, lone surrogates, control
 * characters, markup and very long strings, to feed the report writers.
 */
final class Hostile {

    /** Characters and snippets with a meaning to a terminal, a log, Markdown, HTML, XML, JSON or SARIF. */
    static final List<String> SPECIAL = List.of(
            "\u0000",
            "\u0007",
            "\b",
            "\f",
            "\u000b",
            "\u001b[31m",
            "\u001b]0;title\u0007",
            "\u007f",
            "\u0085",
            "\u009b",
            "\r",
            "\n",
            "\r\n",
            "\t",
            "\u2028",
            "\u2029",
            "\u202e",
            "\u2066",
            "\u200b",
            "\uFEFF",
            "\uFFFE",
            "\uFFFF",
            "\uD800",
            "\uDFFF",
            "\uDBFF\uDFFF",
            "\uD83D\uDE00",
            "::error::x",
            "::stop-commands::t",
            "%",
            "%0A",
            "%25",
            "<script>alert(1)</script>",
            "&",
            "&amp;",
            "<",
            ">",
            "\"",
            "'",
            "`",
            "```",
            "|",
            "[x]",
            "[x](javascript:alert(1))",
            "![i](http://x/i.png)",
            "]",
            "[",
            "](1)",
            "\\",
            "\\[",
            "# h",
            "\n## h\n",
            "---",
            "*",
            "_",
            "{",
            "}",
            "${x}",
            "$",
            "é",
            "e\u0301",
            "日本",
            "]]>",
            "<!--",
            "-->",
            "<?xml",
            "\u00a0",
            "file=a,line=1::",
            ",",
            ":",
            "%SRCROOT%",
            "../",
            "/",
            "C:\\x",
            "..",
            ".");

    private static final List<RuleDescriptor> REAL_RULES =
            RuleRegistry.load().stream().map(r -> r.descriptor()).toList();

    private Hostile() {}

    /** @return a string of any UTF-16 units, special snippets, a very long run, or plain words */
    static Arbitrary<String> text() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.strings().all().ofMaxLength(24)),
                Tuple.of(4, Arbitraries.of(SPECIAL).list().ofMaxSize(6).map(l -> String.join("", l))),
                Tuple.of(
                        1,
                        Combinators.combine(
                                        Arbitraries.of(SPECIAL),
                                        Arbitraries.integers().between(100, 4000))
                                .as(String::repeat)),
                Tuple.of(1, Arbitraries.strings().all().ofMinLength(1000).ofMaxLength(20_000)),
                Tuple.of(
                        2,
                        Arbitraries.of(
                                "pg_try_advisory_lock(id) is evaluated for rows LIMIT does not return",
                                "src/main/java/com/acme/Job.java",
                                "lock-in-limit-query",
                                "")));
    }

    /** @return a string as {@link #text()} that is not blank (rule ids, paths and fingerprints never are) */
    static Arbitrary<String> nonBlank() {
        return text().map(s -> s.isBlank() ? s + "x" : s);
    }

    /** @return a region with any valid position, up to the largest int */
    static Arbitrary<SourceRegion> region(Arbitrary<String> path) {
        Arbitrary<Integer> position = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(1, 200)),
                Tuple.of(1, Arbitraries.integers().between(1, Integer.MAX_VALUE)));
        return Combinators.combine(
                        path, position, position, Arbitraries.integers().between(0, 3), position)
                .as((p, line, column, extra, endColumn) -> new SourceRegion(
                        p, line, column, (int) Math.min(Integer.MAX_VALUE, (long) line + extra), endColumn));
    }

    /** @return a rule id: one of the real rules' or any text */
    static Arbitrary<String> ruleId() {
        return Arbitraries.oneOf(Arbitraries.of(REAL_RULES).map(RuleDescriptor::id), nonBlank());
    }

    private static Arbitrary<Finding> finding(boolean suppressed) {
        Arbitrary<RelatedLocation> related =
                Combinators.combine(region(nonBlank()), text()).as(RelatedLocation::new);
        Arbitrary<FindingSuppression> suppression = Combinators.combine(
                        Arbitraries.of(FindingSuppression.Kind.class), text(), region(nonBlank()))
                .as(FindingSuppression::new);
        Arbitrary<Finding> active = Combinators.combine(
                        ruleId(),
                        Arbitraries.of(Severity.class),
                        text(),
                        region(nonBlank()),
                        related.list().ofMaxSize(3),
                        nonBlank())
                .as(Finding::new);
        return suppressed ? Combinators.combine(active, suppression).as(Finding::withSuppression) : active;
    }

    private static Arbitrary<Notification> notification() {
        return Combinators.combine(Arbitraries.of(Severity.class), nonBlank(), text(), region(nonBlank()))
                .as(Notification::new);
    }

    /** @return a rule descriptor: a real one, or a valid id with hostile descriptions and page */
    private static Arbitrary<RuleDescriptor> descriptor() {
        Arbitrary<String> id = Arbitraries.strings()
                .withCharRange('a', 'z')
                .ofMinLength(1)
                .ofMaxLength(8)
                .list()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(parts -> String.join("-", parts));
        Arbitrary<RuleDescriptor> made = Combinators.combine(
                        id, Arbitraries.of(Severity.class), text(), text(), text(), Arbitraries.of(Precision.class))
                .as((i, s, shortText, full, page, precision) -> new RuleDescriptor(
                        i, RuleDescriptor.pascalCase(i), s, shortText, full, page, List.of("x"), true, precision));
        return Arbitraries.oneOf(Arbitraries.of(REAL_RULES), made);
    }

    /**
     * @param maxFindings the most active findings (suppressed ones and notifications: up to half as many)
     * @return an analysis result with hostile text everywhere a repository can put some
     */
    static Arbitrary<AnalysisResult> result(int maxFindings) {
        int few = Math.max(1, maxFindings / 2);
        Arbitrary<Map<OtherLanguage, Integer>> unanalysed = Arbitraries.of(OtherLanguage.class)
                .list()
                .ofMaxSize(3)
                .map(languages -> {
                    Map<OtherLanguage, Integer> m = new EnumMap<>(OtherLanguage.class);
                    languages.forEach(l -> m.merge(l, 1, Integer::sum));
                    return m;
                });
        Arbitrary<List<RuleDescriptor>> rules = descriptor().list().ofMaxSize(3).uniqueElements(RuleDescriptor::id);
        return Combinators.combine(
                        rules,
                        finding(false).list().ofMaxSize(maxFindings),
                        notification().list().ofMaxSize(few),
                        finding(true).list().ofMaxSize(few),
                        Arbitraries.integers().between(0, Integer.MAX_VALUE),
                        Arbitraries.longs().between(0, Long.MAX_VALUE / 2),
                        unanalysed)
                .as((r, findings, notes, suppressed, files, millis, other) -> new AnalysisResult(
                        Path.of("/nonexistent/fuzz-root"),
                        r,
                        findings,
                        new ArrayList<>(notes),
                        new LockModel(List.of(), List.of()),
                        files,
                        Math.min(files, 7),
                        millis,
                        suppressed,
                        other));
    }

    /**
     * @param s any text
     * @return the text as a UTF-8 file holds it: each half of a surrogate pair that has no other half
     *     becomes U+FFFD, as the report and baseline writers write it
     */
    static String wellFormed(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                sb.append(c).append(s.charAt(++i));
            } else {
                sb.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return sb.toString();
    }
}
