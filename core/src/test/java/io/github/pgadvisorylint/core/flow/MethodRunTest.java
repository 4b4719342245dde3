package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.flow.PathState.Hold;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The transfer functions on tiny graphs: one method of {@code Job}, its lock sites numbered in source order
 * ({@code site-0} the first call naming an advisory function), run alone, and the path states at its exits.
 */
class MethodRunTest {

    private static MethodRun run(String body, AdvisoryFunction... functions) {
        List<MethodFlow> flows = TinyGraphs.lower(
                "class Job {\n void run(java.sql.Connection c) throws Exception {\n" + body + "\n }\n}\n");
        Map<String, LockSite> sites = new HashMap<>();
        for (int i = 0; i < functions.length; i++) {
            sites.put("site-" + i, TinyGraphs.site("site-" + i, functions[i], 3 + i));
        }
        MethodRun r = new MethodRun(new LockStateAnalysis(flows, sites), flows.get(0));
        assertThat(r.execute()).as(r.gaveUp).isTrue();
        return r;
    }

    private static List<Map<Hold, Integer>> heldAt(MethodRun r, int exit) {
        return r.in.get(exit).stream().map(PathState::held).toList();
    }

    @Test
    void aLockThenAnUnlockLeavesNothingHeld() {
        MethodRun r = run("""
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(heldAt(r, MethodFlow.EXIT)).containsOnly(Map.of());
        assertThat(r.acquiredHere).containsOnlyKeys("site-0");
        assertThat(r.releasedAt).containsOnlyKeys("site-0");
        assertThat(r.summary().isEmpty()).isTrue();
    }

    @Test
    void aLockLeftOnTheParametersConnectionIsInTheSummaryAsTheCallersHold() {
        MethodRun r = run("""
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                """, AdvisoryFunction.PG_ADVISORY_LOCK);

        assertThat(heldAt(r, MethodFlow.EXIT)).containsOnly(Map.of(new Hold("c", "site-0"), 1));
        assertThat(r.summary().cases().get(0).acquires()).containsExactly(new Hold("#0", "site-0"));
    }

    @Test
    void aTryLockSplitsThePathIntoOneThatHoldsAndOneThatDoesNot() {
        MethodRun r = run("""
                ResultSet rs = c.createStatement().executeQuery("SELECT pg_try_advisory_lock(1)");
                """, AdvisoryFunction.PG_TRY_ADVISORY_LOCK);

        assertThat(heldAt(r, MethodFlow.EXIT)).containsExactlyInAnyOrder(Map.of(new Hold("c", "site-0"), 1), Map.of());
    }

    @Test
    void theSameLockTakenTwiceStacks() {
        MethodRun r = run("""
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_LOCK);

        assertThat(r.in.get(MethodFlow.EXIT))
                .singleElement()
                .satisfies(s -> assertThat(s.held())
                        .containsOnly(Map.entry(new Hold("c", "site-0"), 1), Map.entry(new Hold("c", "site-1"), 1)));
    }

    @Test
    void anUnlockBeforeTheCommitOfWorkDoneUnderTheLockIsAReleaseBeforeCommit() {
        String before = """
                c.setAutoCommit(false);
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                c.createStatement().executeUpdate("UPDATE jobs SET done = true");
                c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                c.commit();
                """;
        Map<String, PathFinding> found = new TreeMap<>();
        run(before, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK)
                .check(found);
        assertThat(found.values()).extracting(PathFinding::kind).contains(PathFinding.Kind.RELEASE_BEFORE_COMMIT);

        String after = """
                c.setAutoCommit(false);
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                c.createStatement().executeUpdate("UPDATE jobs SET done = true");
                c.commit();
                c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                """;
        Map<String, PathFinding> none = new TreeMap<>();
        run(after, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK)
                .check(none);
        assertThat(none.values()).extracting(PathFinding::kind).doesNotContain(PathFinding.Kind.RELEASE_BEFORE_COMMIT);
    }

    @Test
    void aFailedStatementAbortsTheManualTransactionAndTheUnlockInFinallyIsStuck() {
        MethodRun r = run("""
                c.setAutoCommit(false);
                c.createStatement().execute("SELECT pg_advisory_lock(1)");
                try {
                    c.createStatement().executeUpdate("UPDATE jobs SET done = true");
                } finally {
                    c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                }
                c.commit();
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(r.in.get(MethodFlow.EXCEPTIONAL_EXIT))
                .anySatisfy(s -> assertThat(s.stuck()).containsExactly("site-0"));
        assertThat(r.in.get(MethodFlow.EXIT))
                .allSatisfy(s -> assertThat(s.held()).isEmpty());
    }

    @Test
    void aTransactionLevelTryLockWhoseFailureOnlyLogsReachesTheFirstWorkBothWays() {
        String logsOnly = """
                c.setAutoCommit(false);
                ResultSet rs = c.createStatement().executeQuery("SELECT pg_try_advisory_xact_lock(1)");
                boolean locked = rs.getBoolean(1);
                if (!locked) {
                    log.warn("busy, going on");
                }
                c.createStatement().executeUpdate("UPDATE jobs SET done = true");
                c.commit();
                """;
        // (tiny graphs have no source regions, so the finding itself is not made: the outcomes at the work are)
        MethodRun r = run(logsOnly, AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK);
        assertThat(r.firstWorkHeld.values()).containsExactly(Set.of("site-0"));
        assertThat(r.firstWorkFailed).isEqualTo(r.firstWorkHeld);
        // the window closes at the first work: nothing of the attempt is left at the exit
        assertThat(r.in.get(MethodFlow.EXIT))
                .allSatisfy(s -> assertThat(s.attempts()).isEmpty());

        MethodRun returns = run(
                logsOnly.replace("log.warn(\"busy, going on\");", "return;"),
                AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK);
        assertThat(returns.firstWorkHeld.values()).containsExactly(Set.of("site-0"));
        assertThat(returns.firstWorkFailed).isEmpty();

        MethodRun untested = run(
                logsOnly.replace("if (!locked)", "audit.record(locked); if (!locked)"),
                AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK);
        assertThat(untested.firstWorkHeld).isEmpty(); // the first work came before any test of the result
        assertThat(untested.firstWorkFailed).isEmpty();
    }

    @Test
    void closingAConnectionOfItsOwnEndsTheSessionAndItsLocks() {
        MethodRun r = run("""
                Connection own = DriverManager.getConnection("jdbc:postgresql://db/app");
                own.createStatement().execute("SELECT pg_advisory_lock(1)");
                own.close();
                """, AdvisoryFunction.PG_ADVISORY_LOCK);

        assertThat(r.in.get(MethodFlow.EXIT))
                .allSatisfy(s -> assertThat(s.held()).isEmpty());
    }

    @Test
    void aPropertyTestedAgainKeepsItsFirstAnswerSoTheLockAndItsUnlockAgree() {
        MethodRun r = run("""
                if (c.isReadOnly()) {
                    c.createStatement().execute("SELECT pg_advisory_lock(1)");
                }
                c.createStatement().execute("UPDATE jobs SET done = true");
                if (c.isReadOnly()) {
                    c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(r.correlated).containsExactly("$cond:c.isReadOnly()");
        assertThat(heldAt(r, MethodFlow.EXIT)).containsOnly(Map.of());
    }

    @Test
    void aPropertyWhoseRootIsAssignedBetweenTheTestsMayAnswerOtherwise() {
        MethodRun r = run("""
                if (c.isReadOnly()) {
                    c.createStatement().execute("SELECT pg_advisory_lock(1)");
                }
                c = null;
                if (c.isReadOnly()) {
                    c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(r.in.get(MethodFlow.EXIT))
                .anySatisfy(s -> assertThat(s.held()).isNotEmpty());
    }

    @Test
    void aTryLockMethodThatAnswersTrueAfterItsQueryThrewGivesCallersOnlyTheHonestAnswers() {
        List<MethodFlow> flows = TinyGraphs.lower("""
                class Job {
                 boolean tryLock(java.sql.Connection c) {
                  try {
                   ResultSet rs = c.createStatement().executeQuery("SELECT pg_try_advisory_lock(1)");
                   return rs.next() && rs.getBoolean(1);
                  } catch (Exception e) {
                   return true;
                  }
                 }
                }
                """);
        Map<String, LockSite> sites =
                Map.of("site-0", TinyGraphs.site("site-0", AdvisoryFunction.PG_TRY_ADVISORY_LOCK, 5));
        MethodRun r = new MethodRun(new LockStateAnalysis(flows, sites), flows.get(0));
        assertThat(r.execute()).isTrue();

        assertThat(r.in.get(MethodFlow.EXIT))
                .anySatisfy(s -> assertThat(s.threw()).containsExactly("site-0"));
        assertThat(r.summary().cases())
                .allSatisfy(k -> assertThat(Boolean.TRUE.equals(k.returnValue())
                                && k.acquires().isEmpty())
                        .as("true without the lock")
                        .isFalse());
    }

    @Test
    void aFailedStatementOnAnotherFieldsConnectionAbortsTheSpringTransactionTheUnlockRunsIn() {
        List<MethodFlow> flows = TinyGraphs.lower(
                """
                class Job {
                 java.sql.Connection c;
                 EntityManager em;
                 @Transactional
                 void run() throws Exception {
                  this.c.createStatement().execute("SELECT pg_advisory_lock(1)");
                  try {
                   em.createQuery("UPDATE Invoice i SET i.sent = true").executeUpdate();
                  } finally {
                   this.c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                  }
                 }
                }
                """, d -> d.getAnnotationByName("Transactional").isPresent() ? Set.of("transactional") : Set.of());
        Map<String, LockSite> sites = Map.of(
                "site-0", TinyGraphs.site("site-0", AdvisoryFunction.PG_ADVISORY_LOCK, 7),
                "site-1", TinyGraphs.site("site-1", AdvisoryFunction.PG_ADVISORY_UNLOCK, 11));
        MethodRun r = new MethodRun(new LockStateAnalysis(flows, sites), flows.get(0));
        assertThat(r.execute()).isTrue();

        // the EntityManager's statement and the lock's connection are the transaction's one connection (F18)
        assertThat(r.in.get(MethodFlow.EXCEPTIONAL_EXIT))
                .anySatisfy(s -> assertThat(s.stuck()).containsExactly("site-0"));
    }

    @Test
    void aWhileLoopOverTheLockQuerysOneRowReadsItOnceAndGoesOn() {
        MethodRun r = run("""
                ResultSet rs = c.createStatement().executeQuery("SELECT pg_try_advisory_lock(1)");
                boolean locked = false;
                while (rs.next()) {
                    locked = rs.getBoolean(1);
                }
                if (!locked) {
                    return;
                }
                c.close();
                """, AdvisoryFunction.PG_TRY_ADVISORY_LOCK);

        // the holding path leaves the loop and reaches the close: the lock is still on the closed connection
        assertThat(r.in.get(MethodFlow.EXIT))
                .anySatisfy(s -> assertThat(s.held()).isNotEmpty());
    }

    @Test
    void aRetriedTryLockReadsEachNewResultSetAfreshAndNeverStacks() {
        MethodRun r = run("""
                while (true) {
                    ResultSet rs = c.createStatement().executeQuery("SELECT pg_try_advisory_lock(1)");
                    if (rs.next() && rs.getBoolean(1)) {
                        break;
                    }
                    Thread.sleep(10);
                }
                c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                """, AdvisoryFunction.PG_TRY_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(r.in.get(MethodFlow.EXIT)).allSatisfy(s -> {
            assertThat(s.stacked()).isEmpty();
            assertThat(s.held().values()).allMatch(n -> n == 1);
        });
    }
}
