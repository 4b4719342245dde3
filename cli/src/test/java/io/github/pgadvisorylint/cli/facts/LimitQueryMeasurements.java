package io.github.pgadvisorylint.cli.facts;

import static io.github.pgadvisorylint.cli.facts.Sql.exec;
import static io.github.pgadvisorylint.cli.facts.Sql.heldBy;
import static io.github.pgadvisorylint.cli.facts.Sql.pid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.pgadvisorylint.cli.facts.PostgresServers.Binaries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;

/**
 * F8 and the rules lock-in-limit-query and lock-in-row-filter, measured: for each plan shape, the rows a query
 * returns and the advisory locks its session holds afterwards ({@code pg_locks}), on a 10,000-row table whose
 * {@code prio} column is not indexed (and a copy where it is). Each shape states the claim the rules rely on;
 * a version where it does not hold fails with the measured figures and the plan. Every figure goes to the facts
 * report ({@link FactsReport}).
 */
final class LimitQueryMeasurements {

    /** What a shape claims about locks held versus rows returned. */
    enum Claim {
        /** more locks than rows: the hazard the rule reports */
        MORE_THAN_RETURNED,
        /** exactly the given number of locks */
        EXACTLY
    }

    /**
     * One plan shape.
     *
     * @param name     short name, used in the report and the rule pages
     * @param sql      the query
     * @param claim    what it is claimed to do
     * @param expected for {@link Claim#EXACTLY}, the number of locks
     */
    record Shape(String name, String sql, Claim claim, long expected) {}

    /** The shapes, in the order of the rule pages. */
    static final List<Shape> SHAPES = List.of(
            new Shape(
                    "lock in WHERE, ORDER BY an unindexed column, LIMIT 1",
                    "SELECT id FROM f8_jobs WHERE pg_try_advisory_lock(id) ORDER BY prio LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock in WHERE, ORDER BY an indexed column, LIMIT 1",
                    "SELECT id FROM f8_jobs_indexed WHERE pg_try_advisory_lock(id) ORDER BY prio LIMIT 1",
                    Claim.EXACTLY,
                    1),
            new Shape(
                    "lock in WHERE after a costly filter written first, LIMIT 1",
                    "SELECT id FROM f8_jobs WHERE f8_costly_check(id) AND pg_try_advisory_lock(id) LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock in WHERE with a plain filter, LIMIT 1",
                    "SELECT id FROM f8_jobs WHERE status = 'pending' AND pg_try_advisory_lock(0, id) LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock feeding DISTINCT, LIMIT 5",
                    "SELECT DISTINCT id, pg_try_advisory_lock(id) FROM f8_jobs LIMIT 5",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock feeding GROUP BY, LIMIT 1",
                    "SELECT pg_try_advisory_lock(id) AS got, count(*) FROM f8_jobs GROUP BY 1 LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock in a UNION arm, LIMIT 1",
                    "SELECT id FROM f8_jobs WHERE pg_try_advisory_lock(id) UNION SELECT 0 LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "lock only in the select list, ORDER BY an unindexed column, LIMIT 3",
                    "SELECT id, pg_try_advisory_lock(id) FROM f8_jobs ORDER BY prio LIMIT 3",
                    Claim.EXACTLY,
                    3),
            new Shape(
                    "lock only in the select list, plain filter, LIMIT 10",
                    "SELECT pg_advisory_lock(id) FROM f8_jobs WHERE id > 100 LIMIT 10",
                    Claim.EXACTLY,
                    10),
            new Shape(
                    "safe: lock in the outer select list over a limited subquery",
                    "SELECT id, pg_try_advisory_lock(id) FROM (SELECT id FROM f8_jobs WHERE status = 'pending'"
                            + " ORDER BY prio LIMIT 1) next",
                    Claim.EXACTLY,
                    1),
            new Shape(
                    "lock alone in the outer WHERE over a sorted subquery with no LIMIT of its own, LIMIT 1 outside"
                            + " (the filter is pushed down into the subquery's scan, below its sort)",
                    "SELECT id FROM (SELECT id FROM f8_jobs WHERE status = 'pending' ORDER BY prio) next"
                            + " WHERE pg_try_advisory_lock(id) LIMIT 1",
                    Claim.MORE_THAN_RETURNED,
                    0),
            new Shape(
                    "safe: lock alone in the outer WHERE over a sorted, limited subquery, LIMIT 2 outside",
                    "SELECT id FROM (SELECT id FROM f8_jobs ORDER BY prio LIMIT 100) next"
                            + " WHERE pg_try_advisory_lock(id) LIMIT 2",
                    Claim.EXACTLY,
                    2),
            new Shape(
                    "safe: lock alone in the outer WHERE over a limited subquery with no ORDER BY, LIMIT 1 outside",
                    "SELECT id FROM (SELECT id FROM f8_jobs WHERE status = 'pending' LIMIT 50) next"
                            + " WHERE pg_try_advisory_lock(id) LIMIT 1",
                    Claim.EXACTLY,
                    1),
            new Shape(
                    "safe: lock alone in the outer WHERE over a sorted, limited CTE, LIMIT 1 outside",
                    "WITH next AS (SELECT id FROM f8_jobs ORDER BY prio LIMIT 20) SELECT id FROM next"
                            + " WHERE pg_try_advisory_lock(id) LIMIT 1",
                    Claim.EXACTLY,
                    1),
            new Shape(
                    "safe: the same over a MATERIALIZED CTE",
                    "WITH next AS MATERIALIZED (SELECT id FROM f8_jobs ORDER BY prio LIMIT 20) SELECT id FROM next"
                            + " WHERE pg_try_advisory_lock(id) LIMIT 1",
                    Claim.EXACTLY,
                    1),
            new Shape(
                    "safe: lock in the outer WHERE over a limited CTE",
                    "WITH next AS (SELECT id FROM f8_jobs ORDER BY prio LIMIT 3) SELECT id FROM next"
                            + " WHERE pg_try_advisory_lock(id)",
                    Claim.EXACTLY,
                    3));

    private LimitQueryMeasurements() {}

    /**
     * @param b a version
     * @return one dynamic test per shape on that version's server
     */
    static Stream<DynamicNode> shapes(Binaries b) {
        return SHAPES.stream()
                .map(shape -> dynamicTest("F8 " + shape.name(), () -> {
                    PostgresServer server = PostgresServers.server(b);
                    measure(server, shape);
                    PostgresFactsTest.assertNoAdvisoryLockLeft(server);
                }));
    }

    private static void createTables(Connection c) throws Exception {
        exec(
                c,
                "CREATE TABLE IF NOT EXISTS f8_jobs AS SELECT g AS id, (g * 7919) % 10007 AS prio,"
                        + " CASE WHEN g % 100 = 0 THEN 'pending' ELSE 'done' END AS status FROM generate_series(1, 10000) g");
        exec(c, "CREATE TABLE IF NOT EXISTS f8_jobs_indexed AS SELECT * FROM f8_jobs");
        exec(c, "CREATE INDEX IF NOT EXISTS f8_jobs_indexed_prio ON f8_jobs_indexed (prio)");
        exec(
                c,
                "CREATE OR REPLACE FUNCTION f8_costly_check(id int) RETURNS boolean LANGUAGE plpgsql COST 10000"
                        + " AS $$ BEGIN RETURN id % 100 = 0; END $$");
        exec(c, "ANALYZE f8_jobs");
        exec(c, "ANALYZE f8_jobs_indexed");
    }

    private static void measure(PostgresServer server, Shape shape) throws Exception {
        try (Connection c = server.connect("f8")) {
            createTables(c);
            List<String> plan = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("EXPLAIN (COSTS OFF) " + shape.sql())) {
                while (rs.next()) {
                    plan.add(rs.getString(1));
                }
            }
            long returned = 0;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(shape.sql())) {
                while (rs.next()) {
                    returned++;
                }
            }
            long held = heldBy(c, pid(c));
            exec(c, "SELECT pg_advisory_unlock_all()");
            String nodes = planNodes(plan);
            FactsReport.record(server, "F8", shape.name(), held + " locks for " + returned + " rows; plan " + nodes);
            String what = "%s: %s%n  held %d locks for %d rows returned%n  plan:%n    %s"
                    .formatted(server, shape.sql(), held, returned, String.join("\n    ", plan));
            if (shape.claim() == Claim.EXACTLY) {
                assertThat(held).as(what).isEqualTo(shape.expected());
            } else {
                assertThat(held).as(what).isGreaterThan(returned);
            }
        }
    }

    /** @return the plan's node names, outermost first, e.g. {@code Limit > Sort > Seq Scan} */
    static String planNodes(List<String> plan) {
        List<String> nodes = new ArrayList<>();
        for (String line : plan) {
            String t = line.strip();
            if (t.startsWith("->")) {
                t = t.substring(2).strip();
            } else if (!nodes.isEmpty()) {
                continue; // a detail line (Filter:, Sort Key:, ...)
            }
            int cut = t.length();
            for (String stop : List.of(" on ", " using ", "  (", " (")) {
                int i = t.indexOf(stop);
                if (i >= 0) {
                    cut = Math.min(cut, i);
                }
            }
            nodes.add(t.substring(0, cut));
        }
        return String.join(" > ", nodes);
    }
}
