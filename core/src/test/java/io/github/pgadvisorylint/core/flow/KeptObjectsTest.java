package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PathFinding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a callee hands its caller beyond holds and releases: the lock handle it returns
 * ({@link MethodSummary.HeldField}), the connection an object keeps and its accessor returns
 * ({@link MethodSummary.Case#returnsField()}, {@link MethodSummary.Kept}), the transactions it ends
 * ({@link MethodSummary#ends()}); and what the caller's paths make of them.
 */
class KeptObjectsTest {

    private record Analysed(Map<String, MethodSummary> summaries, List<PathFinding> findings) {}

    private static Analysed analyse(String source, AdvisoryFunction... functions) {
        List<MethodFlow> flows = TinyGraphs.lower(source);
        Map<String, LockSite> sites = new HashMap<>();
        for (int i = 0; i < functions.length; i++) {
            sites.put("site-" + i, TinyGraphs.site("site-" + i, functions[i], 3 + i));
        }
        LockStateAnalysis analysis = new LockStateAnalysis(flows, sites);
        LockStateAnalysis.Result result = analysis.run();
        return new Analysed(
                analysis.summaries().stream().collect(Collectors.toMap(MethodSummary::key, s -> s)), result.findings());
    }

    private static final String SESSION = """
            class Db {
                String url;
                java.sql.Connection connection;
                java.sql.Connection connection() throws Exception {
                    if (connection == null) {
                        connection = java.sql.DriverManager.getConnection(url);
                        connection.setAutoCommit(false);
                    }
                    return connection;
                }
                void commit() throws Exception {
                    connection().commit();
                }
            }
            """;

    @Test
    void anAccessorReturnsTheFieldItKeepsWithTheAutoCommitItSetWhenItOpenedIt() {
        Analysed a = analyse(SESSION + """
                class Job {
                    Db db;
                    void run() throws Exception {
                        db.connection().createStatement().execute("SELECT pg_advisory_lock(1)");
                        db.connection().createStatement().executeUpdate("UPDATE t SET x = 1");
                        db.commit();
                        db.connection().createStatement().execute("SELECT pg_advisory_unlock(1)");
                    }
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(a.summaries().get("Db.connection/0").cases())
                .as("both exits, the one that opens it and the one that finds it open")
                .extracting(MethodSummary.Case::returnsField)
                .containsOnly("#this.connection");
        assertThat(a.summaries().get("Db.connection/0").cases())
                .extracting(MethodSummary.Case::returnedTransaction)
                .containsExactlyInAnyOrder(PathState.Transaction.MANUAL, null);
        MethodSummary run = a.summaries().get("Job.run/0");
        assertThat(run.kept())
                .extracting(MethodSummary.Kept::connection, MethodSummary.Kept::autoCommitOff)
                .containsExactly(tuple("#this.db.connection", true));
        assertThat(run.executes())
                .as("every call of the accessor is one connection")
                .containsExactly("#this.db.connection");
        assertThat(run.ends())
                .as("db.commit() on the wrapper ends the transaction of the connection it keeps")
                .contains("#this.db.connection");
        assertThat(run.cases()).allSatisfy(c -> assertThat(c.acquires()).isEmpty());
        assertThat(a.findings())
                .as(
                        "the lock and the unlock pair on the kept connection after the commit (the accessor call between is no"
                                + " work); only the missing finally is left")
                .extracting(PathFinding::kind)
                .containsExactly(PathFinding.Kind.HELD_ON_EXCEPTION);
    }

    @Test
    void aFailedStatementOnAKeptConnectionWithAutoCommitOffAbortsTheUnlockInFinally() {
        Analysed a = analyse(SESSION + """
                class Job {
                    Db db;
                    void run() throws Exception {
                        db.connection().createStatement().execute("SELECT pg_advisory_lock(1)");
                        try {
                            db.connection().createStatement().executeUpdate("UPDATE t SET x = 1");
                            db.commit();
                        } finally {
                            db.connection().createStatement().execute("SELECT pg_advisory_unlock(1)");
                        }
                    }
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(a.findings()).extracting(PathFinding::kind).containsExactly(PathFinding.Kind.ABORTED_UNLOCK);
    }

    @Test
    void aCommitOnAWrapperEndsTheTransactionsOfTheConnectionsItHolds() {
        Analysed a = analyse(SESSION + """
                class Job {
                    Db db;
                    void run() throws Exception {
                        db.connection().createStatement().execute("SELECT pg_advisory_lock(1)");
                        try {
                            db.connection().createStatement().executeUpdate("UPDATE t SET x = 1");
                        } catch (Exception e) {
                            db.rollback();
                            throw e;
                        } finally {
                            db.connection().createStatement().execute("SELECT pg_advisory_unlock(1)");
                        }
                    }
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(a.findings())
                .as("db.rollback() is not a method of the project here: the wrapper's rollback ends db.connection's")
                .extracting(PathFinding::kind)
                .doesNotContain(PathFinding.Kind.ABORTED_UNLOCK);
    }

    @Test
    void anUnlockCallOnAnInterfaceIsTheLockClassesNotAnInMemoryImplementations() {
        MethodSummary unlocks = new MethodSummary(
                "PgLock.unlock/0",
                List.of(new MethodSummary.Case(
                        List.of(),
                        List.of(new PathState.Release("#this.c", "site-1")),
                        null,
                        null,
                        List.of(),
                        List.of())),
                List.of(),
                List.of(),
                List.of("#this.c"),
                false,
                List.of(),
                List.of(),
                List.of(),
                List.of());
        MethodSummary inMemory = new MethodSummary("LocalLock.unlock/0", List.of());

        MethodSummary call = MethodSummary.union("Lock.unlock/0", List.of(unlocks, inMemory));

        assertThat(call.cases())
                .as("no exit that closes the connection without releasing")
                .singleElement()
                .satisfies(c -> assertThat(c.releases()).isNotEmpty());
        assertThat(MethodSummary.union("Store.save/1", List.of(inMemory, inMemory))
                        .cases())
                .as("without a release among them, a member that does nothing still contributes nothing")
                .isEmpty();
    }

    @Test
    void aReturnedLockHandleCarriesItsHeldConnectionToTheCaller() {
        Analysed a = analyse("""
                class Fence {
                    java.sql.Connection c;
                    Fence(java.sql.Connection c) throws Exception {
                        this.c = c;
                        c.createStatement().execute("SELECT pg_advisory_lock(1)");
                    }
                    void lift() throws Exception {
                        c.createStatement().execute("SELECT pg_advisory_unlock(1)");
                        c.close();
                    }
                }
                class Fences {
                    javax.sql.DataSource ds;
                    Fence raise() throws Exception {
                        return new Fence(ds.getConnection());
                    }
                    void guarded(Runnable body) throws Exception {
                        Fence f = raise();
                        body.run();
                        f.lift();
                    }
                    Object kept(java.util.List<String> items) throws Exception {
                        Fence f = raise();
                        return Ticket.of(f, items);
                    }
                }
                class Ticket {
                    static Ticket of(Fence f, java.util.List<String> items) {
                        return new Ticket();
                    }
                }
                """, AdvisoryFunction.PG_ADVISORY_LOCK, AdvisoryFunction.PG_ADVISORY_UNLOCK);

        assertThat(a.summaries().get("Fences.raise/0").cases())
                .singleElement()
                .satisfies(c -> assertThat(c.heldFields())
                        .containsExactly(new MethodSummary.HeldField("c", "site-0", ConnectionKind.POOLED)));
        assertThat(a.findings())
                .as("guarded: the body can throw before lift(); kept: the handle leaves in the ticket (one finding)")
                .extracting(PathFinding::kind)
                .containsExactly(PathFinding.Kind.HELD_ON_EXCEPTION);
    }
}
