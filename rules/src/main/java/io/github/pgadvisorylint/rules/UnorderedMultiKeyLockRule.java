package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockMode;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockOrderGraph;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.LoopContext;
import io.github.pgadvisorylint.core.model.LoopOrder;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code unordered-multi-key-lock}: several blocking acquisitions whose order is not fixed, so two
 * callers can each hold one key and wait for the other: PostgreSQL ends that with
 * {@code ERROR: deadlock detected} after {@code deadlock_timeout} (RULES.md F9). An error for a proven
 * inversion: one per strongly connected component of the model's {@link LockOrderGraph} (A then B on
 * one path, B then A on another; or a longer ring through several classes and lock helpers), at the
 * acquisition that closes the cycle, the component's other acquisitions as related locations (at most
 * {@value #MAX_RELATED}: the cycle's first, then the others in site order; the message counts the rest). A
 * warning for orders that can vary: loops over unsorted collections, one statement locking many rows,
 * two known keys in descending order, and two keys in an order given by the arguments (directly or
 * through two calls of a lock helper) with no comparison that fixes it.
 */
public final class UnorderedMultiKeyLockRule extends AbstractRule {

    /** The most related locations one inversion lists; the {@code graph} command draws the whole component. */
    static final int MAX_RELATED = 20;

    /** Creates the rule with its metadata and documentation page. */
    public UnorderedMultiKeyLockRule() {
        // precision: order inferred from loops, sorts and the lock-order graph across helpers
        super(
                "unordered-multi-key-lock",
                Severity.WARNING,
                Precision.MEDIUM,
                "Several blocking advisory locks taken in no consistent order can deadlock.",
                "When one code path holds key A and waits for key B while another holds B and waits for A, "
                        + "PostgreSQL detects the deadlock after deadlock_timeout and aborts one of them. Taking "
                        + "every set of keys in one global order (ascending) prevents it; try-locks never wait and "
                        + "cannot deadlock.",
                List.of("correctness", "concurrency", "deadlock", "postgresql", "advisory-lock"));
    }

    /** The strongest finding per site, so one site gets one message. */
    private record Pending(Severity severity, String message, List<RelatedLocation> related) {}

    @Override
    public void check(RuleContext context) {
        LockModel model = context.model();
        Map<LockSite, Pending> findings = new LinkedHashMap<>();
        loopsAndStatements(model, findings);
        LockOrderGraph graph = model.orderGraph();
        for (LockOrderGraph.Component c : graph.components()) {
            put(findings, c.closing().to(), inversion(c));
        }
        for (LockOrderEdge e : model.orderEdges()) {
            if (graph.componentOf(e) != null
                    || !e.waits()
                    || model.endsWithItsStatement(e.from())
                    || sameKey(e.from(), e.to())
                    || !conflict(e.from(), e.to())) {
                continue; // reported with its cycle; nobody waits; a re-entrant lock; two shared locks never block each
                // other
            }
            if (known(e.from()) && known(e.to()) && compare(e.from(), e.to()) > 0) {
                put(
                        findings,
                        e.to(),
                        new Pending(
                                Severity.WARNING,
                                e.to().display() + " is taken while "
                                        + e.from().display()
                                        + " is held: descending key order. If any other path takes these keys "
                                        + "in ascending order the two can deadlock; take every set of keys in ascending order.",
                                List.of(new RelatedLocation(e.from().region(), "the larger key, taken first"))));
            } else if (!known(e.from())
                    && !known(e.to())
                    && !e.ordered()
                    && sameMethod(e)
                    && !oneHelperCall(model, e)
                    && !e.from().key().canonical().equals(e.to().key().canonical())
                    // swapped data can only reverse two keys that may name the same lock: (1, a) then (2, b) never can
                    && e.from().key().mayEqual(e.to().key())) {
                put(
                        findings,
                        e.to(),
                        new Pending(
                                Severity.WARNING,
                                e.to().display() + " is taken while "
                                        + e.from().display() + " is held, in an order given by the data (" + e.method()
                                        + "): a call with "
                                        + "the two values swapped takes them the other way round, and the two calls can deadlock. Lock "
                                        + "the smaller key first (Math.min / Math.max) or sort the keys.",
                                List.of(new RelatedLocation(e.from().region(), "taken first"))));
            }
        }
        keySpaceInversions(model, graph, findings);
        findings.forEach((site, p) -> context.report(p.severity(), site, p.message(), p.related()));
    }

    /**
     * Two-int keys whose first halves are constants and differ ({@code (1, account)} then {@code (2, ledger)}) are never
     * reversed by the data, but a path that takes the two namespaces the other way round deadlocks with this one when
     * both meet on the same values: one warning at each such acquisition, with the opposite path's as related location.
     * Keys known in full are left to the graph's cycles.
     */
    private static void keySpaceInversions(LockModel model, LockOrderGraph graph, Map<LockSite, Pending> findings) {
        Map<List<Long>, List<LockOrderEdge>> byNamespaces = new LinkedHashMap<>();
        for (LockOrderEdge e : model.orderEdges()) {
            Long from = namespace(e.from());
            Long to = namespace(e.to());
            if (from == null
                    || to == null
                    || from.equals(to)
                    || (known(e.from()) && known(e.to()))
                    || oneHelperCall(model, e)
                    || graph.componentOf(e) != null
                    || !e.waits()
                    || model.endsWithItsStatement(e.from())
                    || !conflict(e.from(), e.to())) {
                continue;
            }
            byNamespaces
                    .computeIfAbsent(List.of(from, to), k -> new ArrayList<>())
                    .add(e);
        }
        byNamespaces.forEach((pair, edges) -> {
            List<LockOrderEdge> reverse = byNamespaces.get(List.of(pair.get(1), pair.get(0)));
            if (reverse == null) {
                return;
            }
            LockOrderEdge other = reverse.get(0);
            for (LockOrderEdge e : edges) {
                put(
                        findings,
                        e.to(),
                        new Pending(
                                Severity.WARNING,
                                e.to().display() + " is taken while " + e.from().display() + " is held ("
                                        + e.method() + "), but " + other.method() + " takes keys of namespace "
                                        + pair.get(1) + " before keys of namespace " + pair.get(0)
                                        + ": when the two meet on the same values, each holds one and waits for the "
                                        + "other until PostgreSQL aborts one with \"deadlock detected\". Take the "
                                        + "namespaces in one fixed order everywhere.",
                                List.of(
                                        new RelatedLocation(e.from().region(), "taken first here"),
                                        new RelatedLocation(other.to().region(), "the opposite order"))));
            }
        });
    }

    /** @return the constant first half of a two-int key, or null */
    private static Long namespace(LockSite s) {
        LockKey key = s.key();
        return key.space() == KeySpace.INT_PAIR && key.parts().get(0).isKnown()
                ? key.parts().get(0).value()
                : null;
    }

    /**
     * One error for a strongly connected component of the lock-order graph, at the acquisition that
     * closes its cycle, with every other acquisition of the component as a related location.
     */
    private static Pending inversion(LockOrderGraph.Component c) {
        LockOrderEdge closing = c.closing();
        String message;
        if (c.cycle().size() == 2) {
            LockOrderEdge other = c.cycle().get(1);
            message = closing.to().display() + " is taken while "
                    + closing.from().display() + " is held ("
                    + closing.method() + "), but " + other.method() + " takes them in the opposite order: two sessions "
                    + "can each hold one and wait for the other until PostgreSQL aborts one with \"deadlock detected\". "
                    + "Take both keys in one fixed order everywhere.";
        } else {
            StringBuilder path = new StringBuilder();
            for (LockOrderEdge e : c.cycle()) {
                path.append(path.length() == 0 ? "" : ", ")
                        .append(LockOrderGraph.nodeOf(e.from()).label())
                        .append(" then ")
                        .append(LockOrderGraph.nodeOf(e.to()).label())
                        .append(" (")
                        .append(e.method())
                        .append(')');
            }
            message =
                    closing.to().display() + " is taken while " + closing.from().display() + " is held ("
                            + closing.method() + "), which closes a cycle of "
                            + c.cycle().size() + " lock orders: " + path
                            + ". As many sessions can each hold one key and wait for the next until PostgreSQL "
                            + "aborts one with \"deadlock detected\". Take these keys in one fixed order everywhere.";
        }
        Map<SourceRegion, String> related = new LinkedHashMap<>();
        related.put(closing.to().region(), "");
        List<LockOrderEdge> ordered = new ArrayList<>(c.cycle());
        c.edges().stream().filter(e -> !c.cycle().contains(e)).forEach(ordered::add);
        Set<SourceRegion> all = new HashSet<>();
        for (LockOrderEdge e : c.edges()) {
            all.add(e.from().region());
            all.add(e.to().region());
        }
        all.remove(closing.to().region());
        for (LockOrderEdge e : ordered) {
            if (related.size() > MAX_RELATED) {
                break; // the closing site's placeholder and MAX_RELATED others
            }
            if (related.containsKey(e.from().region()) && related.containsKey(e.to().region())) {
                continue;
            }
            String held = LockOrderGraph.nodeOf(e.from()).label();
            String taken = LockOrderGraph.nodeOf(e.to()).label();
            if (e.from().region().equals(e.to().region())) { // one lock-helper call takes both
                related.putIfAbsent(
                        e.from().region(), held + " then " + taken + " are taken here (" + e.method() + ")");
            } else {
                related.putIfAbsent(e.from().region(), held + " is held here (" + e.method() + ")");
                related.putIfAbsent(
                        e.to().region(), taken + " is then taken here while " + held + " is held (" + e.method() + ")");
            }
        }
        related.remove(closing.to().region());
        while (related.size() > MAX_RELATED) {
            related.remove(related.keySet().stream().reduce((a, b) -> b).orElseThrow());
        }
        if (all.size() > related.size()) {
            message += " The component has " + all.size() + " other acquisitions; the first " + related.size()
                    + " along the cycle are listed as related locations (" + (all.size() - related.size())
                    + " more, see `pg-advisory-lint graph`).";
        }
        List<RelatedLocation> locations = new ArrayList<>();
        related.forEach((region, text) -> locations.add(new RelatedLocation(region, text)));
        return new Pending(Severity.ERROR, message, locations);
    }

    private static void put(Map<LockSite, Pending> findings, LockSite site, Pending p) {
        Pending old = findings.get(site);
        if (old == null || p.severity().compareTo(old.severity()) > 0) {
            findings.put(site, p);
        }
    }

    /** Loops over collections with no visible order, and single statements that lock many rows. */
    private static void loopsAndStatements(LockModel model, Map<LockSite, Pending> findings) {
        LoopResults perLoop = new LoopResults(model);
        for (LockSite site : model.acquisitions()) {
            if (!site.function().isBlocking()) {
                continue;
            }
            LoopOrder loop = model.loop(site);
            if (loop != null && !loop.sorted() && holdsAcrossIterations(model, site)) {
                perLoop.add(site);
            }
            if (model.role(site) != SiteRole.HELPER_CALL
                    && site.sql().readsRows()
                    && site.key().hasColumnPart()
                    && site.sql().clause() != SqlClause.FROM
                    && !RowSources.sortedSubqueryOnly(site.sql())) {
                put(
                        findings,
                        site,
                        new Pending(
                                Severity.WARNING,
                                site.display() + " locks one key per row of one "
                                        + "statement; PostgreSQL promises no order of evaluation, so two such statements over "
                                        + "overlapping rows can deadlock. Lock the keys one by one in a fixed order, or lock in an outer "
                                        + "query over rows sorted in a subquery.",
                                List.of()));
            }
        }
        // one result per loop, at its first lock: the others of the iteration are related locations
        for (List<LockSite> sites : perLoop.groups()) {
            LockSite site = sites.get(0);
            LoopOrder loop = model.loop(site);
            put(
                    findings,
                    site,
                    new Pending(
                            Severity.WARNING,
                            site.display() + " takes one lock per element of "
                                    + loop.source() + " and keeps them, in iteration order, but " + loop.evidence()
                                    + ": two callers "
                                    + "with overlapping elements in different orders can deadlock. Sort the keys before the loop "
                                    + "(sorted(), a TreeSet).",
                            LoopResults.othersOf(sites)));
        }
    }

    /**
     * A lock in a loop is a multi-key lock only when the iteration does not release it: no release,
     * commit or per-iteration transaction in the loop body (the loop's {@link LoopContext}).
     */
    private static boolean holdsAcrossIterations(LockModel model, LockSite site) {
        LoopContext loop = model.usage(site).loop();
        if ((loop != null && loop.releasedEachIteration()) || model.endsWithItsStatement(site)) {
            return false; // released each iteration, or a transaction-level lock in autocommit (F2)
        }
        if (loop != null && !loop.keyVaries()) {
            return false; // the same key in every iteration: one lock, taken again (re-entrant)
        }
        if (site.function().level() == LockLevel.TRANSACTION) {
            return true;
        }
        LockLifecycle l = model.lifecycle(site);
        return l == null
                || (l.guarantee() != ReleaseGuarantee.FINALLY
                        && l.guarantee() != ReleaseGuarantee.BY_HELPER
                        && l.guarantee() != ReleaseGuarantee.TRY_WITH_RESOURCES
                        && l.guarantee() != ReleaseGuarantee.NOT_IN_FINALLY
                        && l.guarantee() != ReleaseGuarantee.PATHS_FOLLOWED);
    }

    private static boolean conflict(LockSite a, LockSite b) {
        return !(a.function().mode() == LockMode.SHARED && b.function().mode() == LockMode.SHARED);
    }

    private static boolean known(LockSite s) {
        return s.key().isFullyKnown();
    }

    private static boolean sameKey(LockSite a, LockSite b) {
        return a.key().isFullyKnown()
                && b.key().isFullyKnown()
                && a.key().space() == b.key().space()
                && a.key().canonical().equals(b.key().canonical());
    }

    /**
     * Both acquisitions come from one call of a lock helper that takes two keys: the order is the
     * helper's, and the helper's own SQL sites are judged (and reported) where it is written.
     */
    private static boolean oneHelperCall(LockModel model, LockOrderEdge e) {
        return model.role(e.from()) == SiteRole.HELPER_CALL
                && model.role(e.to()) == SiteRole.HELPER_CALL
                && e.from().region().equals(e.to().region());
    }

    private static boolean sameMethod(LockOrderEdge e) {
        return e.from().java() != null
                && e.to().java() != null
                && e.from().path().equals(e.to().path())
                && e.from().java().methodName().equals(e.to().java().methodName());
    }

    private static int compare(LockSite a, LockSite b) {
        if (a.key().space() != b.key().space()) {
            return 0;
        }
        List<KeyPart> pa = a.key().parts();
        List<KeyPart> pb = b.key().parts();
        for (int i = 0; i < pa.size(); i++) {
            int c = Long.compare(pa.get(i).value(), pb.get(i).value());
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
