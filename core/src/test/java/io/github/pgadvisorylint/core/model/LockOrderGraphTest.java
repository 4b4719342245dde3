package io.github.pgadvisorylint.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lock-order graph: nodes, edges, strongly connected components, modes, and the closing edge. */
class LockOrderGraphTest {

    private int line;

    /** A site in its own line of {@code path}, in the method {@code method}. */
    private LockSite site(String path, String method, AdvisoryFunction fn, long key) {
        return site(
                path, method, fn, new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(key, Long.toString(key), null))));
    }

    private LockSite site(String path, String method, AdvisoryFunction fn, LockKey key) {
        line++;
        return new LockSite(
                path + "#" + line,
                fn,
                key,
                SourceRegion.line(path, line),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext(path.replace(".java", ""), method, "st.execute", "st", null));
    }

    private static final AdvisoryFunction X = AdvisoryFunction.PG_ADVISORY_XACT_LOCK;
    private static final AdvisoryFunction XS = AdvisoryFunction.PG_ADVISORY_XACT_LOCK_SHARED;
    private static final AdvisoryFunction TRY = AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK;

    /** An edge "b while a" in one method of one file, a taken first. */
    private LockOrderEdge edge(String path, String method, AdvisoryFunction fa, long a, AdvisoryFunction fb, long b) {
        return new LockOrderEdge(site(path, method, fa, a), site(path, method, fb, b), false);
    }

    @Test
    void twoKeysInOppositeOrdersAreOneComponentClosedByTheLaterEdge() {
        LockOrderEdge first = edge("A.java", "close", X, 700, X, 800);
        LockOrderEdge second = edge("B.java", "reopen", X, 800, X, 700);
        LockOrderGraph g = LockOrderGraph.of(List.of(second, first));
        assertThat(g.nodes()).extracting(LockOrderGraph.Node::id).containsExactly("kB_700_", "kB_800_");
        assertThat(g.edges()).hasSize(2);
        assertThat(g.components()).hasSize(1);
        LockOrderGraph.Component c = g.components().get(0);
        assertThat(c.nodes()).extracting(LockOrderGraph.Node::id).containsExactly("kB_700_", "kB_800_");
        assertThat(c.edges()).containsExactly(first, second);
        assertThat(c.closing()).isEqualTo(second);
        assertThat(c.cycle()).containsExactly(second, first);
        assertThat(g.componentOf(first)).isSameAs(c);
        assertThat(g.edges()).allMatch(g::onCycle);
    }

    @Test
    void aRingOfThreeIsOneComponentAndAChainIsNone() {
        LockOrderEdge ab = edge("A.java", "a", X, 1, X, 2);
        LockOrderEdge bc = edge("B.java", "b", X, 2, X, 3);
        LockOrderEdge ca = edge("C.java", "c", X, 3, X, 1);
        LockOrderGraph ring = LockOrderGraph.of(List.of(ca, ab, bc));
        assertThat(ring.components()).hasSize(1);
        assertThat(ring.components().get(0).cycle()).containsExactly(ca, ab, bc);
        assertThat(ring.components().get(0).nodes()).hasSize(3);

        LockOrderGraph chain = LockOrderGraph.of(List.of(ab, bc, edge("C.java", "c", X, 1, X, 3)));
        assertThat(chain.components()).isEmpty();
        assertThat(chain.edges()).noneMatch(chain::onCycle);
    }

    @Test
    void twoSeparateInversionsAreTwoComponentsAndATailStaysOutside() {
        LockOrderEdge ab = edge("A.java", "a", X, 1, X, 2);
        LockOrderEdge ba = edge("A.java", "b", X, 2, X, 1);
        LockOrderEdge cd = edge("C.java", "c", X, 3, X, 4);
        LockOrderEdge dc = edge("C.java", "d", X, 4, X, 3);
        LockOrderEdge tail = edge("C.java", "e", X, 2, X, 3); // one way only: joins the two, closes nothing
        LockOrderGraph g = LockOrderGraph.of(List.of(ab, ba, cd, dc, tail));
        assertThat(g.components()).hasSize(2);
        assertThat(g.components().get(0).closing()).isEqualTo(ba);
        assertThat(g.components().get(1).closing()).isEqualTo(dc);
        assertThat(g.componentOf(tail)).isNull();
    }

    @Test
    void tryLocksNeverWaitAndSharedWaitsNeedAnExclusiveHolder() {
        // the closing acquisition is a try-lock: no cycle of waits
        assertThat(LockOrderGraph.of(List.of(edge("A.java", "a", X, 1, X, 2), edge("A.java", "b", X, 2, TRY, 1)))
                        .components())
                .isEmpty();
        // shared on every end: nobody blocks anybody
        assertThat(LockOrderGraph.of(List.of(edge("A.java", "a", XS, 1, XS, 2), edge("A.java", "b", XS, 2, XS, 1)))
                        .components())
                .isEmpty();
        // 1 held exclusive, 2 awaited shared; 2 held shared, 1 awaited exclusive: the shared wait for 2
        // is not blocked by a shared holder, so no deadlock
        assertThat(LockOrderGraph.of(List.of(edge("A.java", "a", X, 1, XS, 2), edge("A.java", "b", XS, 2, X, 1)))
                        .components())
                .isEmpty();
        // 1 held shared, 2 awaited shared; 2 held exclusive, 1 awaited exclusive: both waits blocked
        LockOrderGraph mixed =
                LockOrderGraph.of(List.of(edge("A.java", "a", XS, 1, XS, 2), edge("A.java", "b", X, 2, X, 1)));
        assertThat(mixed.components()).hasSize(1);
        assertThat(mixed.edges()).allMatch(mixed::onCycle);
    }

    @Test
    void keysNotKnownStaticallyAreDrawnButProveNothing() {
        LockKey from = new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.UNKNOWN, "from")));
        LockKey to = new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.UNKNOWN, "to")));
        LockOrderEdge e1 = new LockOrderEdge(site("A.java", "t", X, from), site("A.java", "t", X, to), false);
        LockOrderEdge e2 = new LockOrderEdge(site("B.java", "u", X, to), site("B.java", "u", X, from), false);
        LockOrderGraph g = LockOrderGraph.of(List.of(e1, e2));
        assertThat(g.edges()).hasSize(2);
        assertThat(g.nodes()).extracting(LockOrderGraph.Node::label).containsExactlyInAnyOrder("from", "to");
        assertThat(g.nodes()).noneMatch(LockOrderGraph.Node::known);
        assertThat(g.components()).isEmpty();
    }

    @Test
    void aReentrantPairIsNoEdge() {
        assertThat(LockOrderGraph.of(List.of(edge("A.java", "a", X, 5, X, 5))).edges())
                .isEmpty();
    }

    @Test
    void theResultDoesNotDependOnTheInputOrder() {
        List<LockOrderEdge> edges = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            edges.add(edge("F" + (i % 4) + ".java", "m" + i, X, i % 5, X, (i * 3 + 1) % 5));
        }
        LockOrderGraph reference = LockOrderGraph.of(edges);
        assertThat(reference.components()).isNotEmpty();
        Random random = new Random(14);
        for (int round = 0; round < 20; round++) {
            List<LockOrderEdge> shuffled = new ArrayList<>(edges);
            Collections.shuffle(shuffled, random);
            LockOrderGraph g = LockOrderGraph.of(shuffled);
            assertThat(g.nodes()).isEqualTo(reference.nodes());
            assertThat(g.edges()).isEqualTo(reference.edges());
            assertThat(g.components()).isEqualTo(reference.components());
        }
    }
}
