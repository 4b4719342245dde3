package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ast.body.CallableDeclaration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link CallingContexts}: copies of callees bound to a caller's lambda or run in a caller's transaction. */
class CallingContextsTest {

    private static CallingContexts.Expanded expand(String source) {
        return CallingContexts.expand(TinyGraphs.lower(
                source,
                (CallableDeclaration<?> c) ->
                        c.getAnnotationByName("Transactional").isPresent() ? Set.of("transactional") : Set.of()));
    }

    private static MethodFlow flow(CallingContexts.Expanded e, String key) {
        return e.flows().stream().filter(f -> f.key().equals(key)).findFirst().orElseThrow();
    }

    private static final String RUNNER = """
            class Runner {
                org.springframework.jdbc.core.JdbcTemplate jdbc;
                void locked(long k, Runnable work) {
                    jdbc.queryForObject("SELECT pg_advisory_lock(1)", Object.class);
                    try { work.run(); } finally { jdbc.queryForObject("SELECT pg_advisory_unlock(1)", Object.class); }
                }
            }
            class Caller {
                Runner runner;
                @Transactional void inside() { runner.locked(1, () -> System.out.println("x")); }
                void outside() { runner.locked(2, this::step); }
                void step() { }
            }
            """;

    @Test
    void aLambdaOrMethodReferenceIsBoundToTheParameterTheCalleeRuns() {
        CallingContexts.Expanded e = expand(RUNNER);
        String boundCall = flow(e, "Runner.locked$bound1/2").nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.CALL
                        && "work".equals(n.event().path()))
                .map(n -> n.event().callee().get(0))
                .findFirst()
                .orElseThrow();
        assertThat(boundCall).isEqualTo("Caller.inside$lambda0/0");
        assertThat(flow(e, "Runner.locked$bound2/2").nodes().stream()
                        .anyMatch(n -> n.event().callee().equals(List.of("Caller.step/0"))))
                .as("a method reference, with the arity of the call that runs it")
                .isTrue();
    }

    @Test
    void aCalleeOfATransactionalMethodRunsInACopyMarkedTransactionalThatNamesTheCaller() {
        CallingContexts.Expanded e = expand(RUNNER);
        MethodFlow copy = flow(e, "Runner.locked$bound1$tx/2");
        assertThat(copy.modifiers()).contains("transactional");
        assertThat(e.transactionCallers().get(copy.key()).method()).isEqualTo("Caller.inside");
        assertThat(flow(e, "Caller.inside/0").nodes().stream()
                        .anyMatch(n -> !n.event().callee().isEmpty()
                                && n.event().callee().get(0).equals(copy.key())))
                .isTrue();
        assertThat(e.flows()).noneMatch(f -> f.key().equals("Runner.locked$bound2$tx/2"));
        assertThat(e.alwaysInTransaction())
                .as("the unbound helper also runs outside, through Caller.outside")
                .doesNotContain("Runner.locked/2");
    }

    @Test
    void aMethodOnlyTransactionalCallersReachIsAlwaysInATransaction() {
        CallingContexts.Expanded e = expand("""
                class Steps {
                    Locks locks;
                    void invoice() { locks.run(); }
                }
                class Locks {
                    org.springframework.jdbc.core.JdbcTemplate jdbc;
                    void run() { jdbc.queryForObject("SELECT pg_advisory_lock(1)", Object.class); }
                    @org.springframework.scheduling.annotation.Async void later() { run(); }
                }
                class Billing {
                    Steps steps;
                    @Transactional void close() { steps.invoice(); }
                }
                class Entry {
                    Locks locks;
                    void tick() { locks.later(); }
                }
                """);
        assertThat(e.alwaysInTransaction()).contains("Billing.close/0", "Steps.invoice/0");
        assertThat(e.alwaysInTransaction())
                .as("@Async runs on another thread: Locks.run is also reached outside")
                .doesNotContain("Locks.later/0", "Locks.run/0");
    }

    @Test
    void aSelfCallFromANonTransactionalMethodBypassesTheProxy() {
        CallingContexts.Expanded e = expand("""
                class Job {
                    org.springframework.jdbc.core.JdbcTemplate jdbc;
                    void tick() { rotate(); }
                    @Transactional void rotate() { helper(); }
                    void helper() { jdbc.queryForObject("SELECT pg_advisory_lock(1)", Object.class); }
                }
                """);
        assertThat(e.alwaysInTransaction()).doesNotContain("Job.rotate/0", "Job.helper/0");
        assertThat(e.flows()).noneMatch(f -> f.name().endsWith("$tx"));
    }
}
