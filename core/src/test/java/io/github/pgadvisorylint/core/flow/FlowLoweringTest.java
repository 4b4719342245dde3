package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The control-flow graphs the lock-state analysis runs on: finally copies, exception edges, bounds. */
class FlowLoweringTest {

    private static List<MethodFlow> lower(String source) {
        return TinyGraphs.lower(source);
    }

    @Test
    void aFinallyBlockIsCopiedOntoTheNormalAndTheExceptionalWayOut() {
        MethodFlow flow = lower("""
                class A {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("SELECT pg_advisory_lock(1)");
                        try {
                            st.execute("UPDATE t SET x = 1");
                        } finally {
                            st.execute("SELECT pg_advisory_unlock(1)");
                        }
                    }
                }
                """).get(0);
        List<FlowNode> unlocks = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK
                        && n.event().sites().contains("site-1"))
                .toList();
        assertThat(unlocks).hasSize(2).allMatch(FlowNode::inFinally);
        assertThat(unlocks.stream().map(n -> n.next().get(0)).toList())
                .containsExactlyInAnyOrder(MethodFlow.EXIT, MethodFlow.EXCEPTIONAL_EXIT);
        FlowNode update = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.EXECUTE)
                .findFirst()
                .orElseThrow();
        assertThat(update.onException()).isNotEmpty().doesNotContain(MethodFlow.EXCEPTIONAL_EXIT);
    }

    @Test
    void lambdasAndMethodReferencesAreValuesNamingTheirGraphsAndTheirCallsCanThrow() {
        List<MethodFlow> flows = lower("""
                class A {
                    java.sql.Connection c;
                    boolean locked() { return true; }
                    void run(java.util.function.Supplier<Boolean> probe) {
                        retry(() -> locked(), this::locked);
                        probe.get();
                    }
                    void retry(java.util.function.Supplier<Boolean> a, java.util.function.Supplier<Boolean> b) { }
                }
                class B extends A {
                    void use() throws Exception { c.createStatement().execute("UPDATE t SET x = 1"); }
                }
                """);
        MethodFlow run = flows.stream()
                .filter(f -> f.key().equals("A.run/1"))
                .findFirst()
                .orElseThrow();
        FlowNode retry = run.nodes().stream()
                .filter(n -> n.event().callee().contains("A.retry/2"))
                .findFirst()
                .orElseThrow();
        assertThat(retry.event().args()).containsExactly("$fn:A.run$lambda0/0", "$fn:A.locked/?");
        FlowNode probe = run.nodes().stream()
                .filter(n -> "probe".equals(n.event().path()))
                .findFirst()
                .orElseThrow();
        assertThat(probe.onException()).as("it runs the caller's code").isNotEmpty();
        MethodFlow lambda = flows.stream()
                .filter(f -> f.key().equals("A.run$lambda0/0"))
                .findFirst()
                .orElseThrow();
        assertThat(lambda.nodes().stream().filter(n -> n.event().kind() == FlowEvent.Kind.RETURN))
                .as("an expression lambda returns its value")
                .singleElement()
                .satisfies(n -> assertThat(n.event().target()).isNotNull());
        assertThat(flows.stream()
                        .filter(f -> f.typeName().equals("B"))
                        .findFirst()
                        .orElseThrow()
                        .supertypes())
                .containsExactly("A");
    }

    @Test
    void aForEachLambdaIsLoweredAsALoopOfThisMethodAndGetsNoGraphOfItsOwn() {
        List<MethodFlow> flows = lower("""
                class A {
                    void run(java.sql.Statement st, java.util.List<Long> ids) throws Exception {
                        ids.forEach(id -> st.execute("SELECT pg_advisory_lock(" + id + ")"));
                    }
                }
                """);
        assertThat(flows).extracting(MethodFlow::key).containsExactly("A.run/2");
        MethodFlow run = flows.get(0);
        FlowNode lock = run.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow();
        FlowNode test = run.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.BRANCH)
                .findFirst()
                .orElseThrow();
        assertThat(test.next())
                .as("into the body, or out after any number of rounds")
                .hasSize(2);
        assertThat(reaches(run, lock.next().get(0), lock.id()))
                .as("the body runs again")
                .isTrue();
        assertThat(reaches(run, test.id(), MethodFlow.EXIT)).as("zero rounds").isTrue();
    }

    @Test
    void transactionControlStatementsAreBeginAndEndEventsAndRollbackToASavepointIsNot() {
        MethodFlow flow = lower("""
                class A {
                    void run(java.sql.Statement st) throws Exception {
                        st.execute("BEGIN");
                        st.execute("ROLLBACK TO SAVEPOINT s1");
                        st.execute("commit;");
                        st.execute("START TRANSACTION ISOLATION LEVEL SERIALIZABLE");
                        st.execute("ROLLBACK");
                    }
                }
                """).get(0);
        List<String> events = flow.nodes().stream()
                .map(n -> n.event().kind()
                        + (n.event().kind() == FlowEvent.Kind.END && n.event().negated() ? "-rollback" : ""))
                .filter(k -> !k.equals("NOP"))
                .toList();
        assertThat(events).containsExactly("BEGIN", "EXECUTE", "END", "BEGIN", "END-rollback");
    }

    @Test
    void jooqDslUsingIsTheConnectionOfItsArgument() {
        MethodFlow flow = lower("""
                class A {
                    void run(org.jooq.Configuration cfg) {
                        DSL.using(cfg).execute("SELECT pg_advisory_lock(1)");
                    }
                }
                """).get(0);
        FlowNode lock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow();
        assertThat(lock.event().path()).isEqualTo("cfg");
    }

    @Test
    void anUnlabelledBreakInALabelledSwitchLeavesTheSwitch() {
        MethodFlow flow = lower("""
                class A {
                    void run(int k, java.sql.Statement st) throws Exception {
                        out:
                        switch (k) {
                            case 1:
                                break;
                            default:
                                return;
                        }
                        st.execute("SELECT pg_advisory_unlock(2)");
                    }
                }
                """).get(0);
        FlowNode unlock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK
                        && n.event().sites().contains("site-0"))
                .findFirst()
                .orElseThrow();
        // only case 1 reaches the unlock, through its break: the break leaves the switch, not a labelled block
        assertThat(reaches(flow, MethodFlow.ENTRY, unlock.id())).isTrue();
    }

    @Test
    void finallyBlocksNestedInFinallyBlocksPastTheBoundLeaveTheMethodOutInsteadOfGrowingWithoutEnd() {
        String body = "st.execute(\"UPDATE t SET y = 1\");";
        for (int i = 0; i < 40; i++) {
            body = "try { st.execute(\"UPDATE a SET b = " + i + "\"); } finally { " + body + " }";
        }
        List<MethodFlow> flows =
                lower("class A { void run(java.sql.Statement st) throws Exception { " + body + " } void small() { } }");
        assertThat(flows).extracting(MethodFlow::name).containsExactly("small");
    }

    private static boolean reaches(MethodFlow flow, int from, int to) {
        boolean[] seen = new boolean[flow.nodes().size()];
        ArrayDeque<Integer> work = new ArrayDeque<>(List.of(from));
        while (!work.isEmpty()) {
            int n = work.poll();
            if (n == to) {
                return true;
            }
            if (!seen[n]) {
                seen[n] = true;
                work.addAll(flow.nodes().get(n).next());
            }
        }
        return false;
    }

    @Test
    void aReactorUsingWhenIsLoweredAsTryWithResourcesWithItsLambdaInline() {
        MethodFlow flow = lower("""
                class A {
                    io.r2dbc.pool.ConnectionPool pool;
                    reactor.core.publisher.Mono<Void> run(reactor.core.publisher.Mono<Void> work) {
                        return Mono.usingWhen(
                                pool.create(),
                                c -> Mono.from(c.createStatement("SELECT pg_advisory_lock(1)").execute())
                                        .then(work)
                                        .then(Mono.from(c.createStatement("SELECT pg_advisory_unlock(1)").execute())),
                                Connection::close);
                    }
                }
                """).get(0);
        List<FlowEvent.Kind> kinds = flow.nodes().stream()
                .map(n -> n.event().kind())
                .filter(k -> k != FlowEvent.Kind.NOP && k != FlowEvent.Kind.ASSIGN)
                .toList();
        assertThat(kinds)
                .as("the connection opened, the lock, the work that can fail, the unlock, the close on each way out")
                .containsSubsequence(
                        FlowEvent.Kind.OPEN,
                        FlowEvent.Kind.LOCK,
                        FlowEvent.Kind.CALL,
                        FlowEvent.Kind.LOCK,
                        FlowEvent.Kind.CLOSE);
        assertThat(kinds.stream().filter(k -> k == FlowEvent.Kind.CLOSE)).hasSize(2);
        FlowNode work = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.CALL)
                .findFirst()
                .orElseThrow();
        assertThat(work.onException())
                .as("a failed work goes to the close, not around it")
                .isNotEmpty();
        assertThat(flow.nodes())
                .as("the lambda is inline: no graph of its own is needed")
                .noneMatch(n -> n.event().path() != null && n.event().path().startsWith("$fn:"));
    }

    @Test
    void aVertxFutureChainInlinesComposeAndCopiesEventuallyOntoBothWaysOut() {
        MethodFlow flow = lower("""
                class A {
                    io.vertx.core.Future<Void> run(io.vertx.sqlclient.SqlConnection conn) {
                        return conn.preparedQuery("SELECT pg_advisory_lock(1)").execute()
                                .compose(r -> conn.preparedQuery("UPDATE t SET x = 1").execute())
                                .eventually(() -> conn.preparedQuery("SELECT pg_advisory_unlock(1)").execute())
                                .mapEmpty();
                    }
                }
                """).get(0);
        List<FlowNode> locks = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .toList();
        assertThat(locks)
                .as("the lock once; the unlock of eventually on the success and on the failure way out")
                .hasSize(3);
        assertThat(locks.stream().filter(FlowNode::inFinally)).hasSize(2);
        assertThat(flow.nodes())
                .as("compose's function is inline: no graph of its own is needed")
                .noneMatch(n -> n.event().path() != null && n.event().path().startsWith("$fn:"));
    }

    @Test
    void aRetryRunsTheUpstreamAgainFromItsStartAfterAnError() {
        MethodFlow flow = lower("""
                class A {
                    reactor.core.publisher.Mono<Void> run(io.r2dbc.spi.Connection c, reactor.core.publisher.Mono<Void> work) {
                        return Mono.from(c.createStatement("SELECT pg_advisory_lock(1)").execute())
                                .then(work)
                                .retry(3);
                    }
                }
                """).get(0);
        FlowNode lock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow();
        FlowNode retry = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.BRANCH)
                .findFirst()
                .orElseThrow();
        assertThat(flow.reaches(List.of(retry.id()), false, n -> n == lock.id()))
                .as("an error goes to the retry, which subscribes again: the lock runs again")
                .isTrue();
        assertThat(flow.reaches(List.of(retry.id()), true, n -> n == MethodFlow.EXCEPTIONAL_EXIT))
                .as("or the retries run out and the error goes on")
                .isTrue();
    }

    @Test
    void aComposeOnSomethingThatIsNoFutureIsAnOrdinaryCall() {
        MethodFlow flow = lower("""
                class A {
                    java.util.function.Function<Long, Long> run(java.util.function.Function<Long, Long> f) {
                        return f.compose(x -> x + 1);
                    }
                }
                """).get(0);
        assertThat(flow.nodes())
                .as("Function.compose takes the lambda as a value")
                .anyMatch(n -> n.event().kind() == FlowEvent.Kind.CALL
                        && n.event().args().stream().anyMatch(a -> a != null && a.startsWith("$fn:")));
    }

    @Test
    void onErrorResumeCatchesTheUpstreamAndMonoErrorNeverCompletes() {
        MethodFlow flow = lower("""
                class A {
                    reactor.core.publisher.Mono<Void> run(io.r2dbc.spi.Connection c, reactor.core.publisher.Mono<Void> work) {
                        return Mono.from(c.createStatement("SELECT pg_advisory_lock(1)").execute())
                                .then(work)
                                .onErrorResume(e -> Mono.from(c.createStatement("SELECT pg_advisory_unlock(1)").execute())
                                        .then(Mono.error(e)));
                    }
                }
                """).get(0);
        FlowNode work = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.CALL)
                .findFirst()
                .orElseThrow();
        FlowNode handler = flow.nodes().get(work.onException().get(0));
        assertThat(handler.event().kind()).as("the catch's dispatch").isEqualTo(FlowEvent.Kind.NOP);
        FlowNode rethrow = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.CALL && n != work)
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(rethrow.next()).as("Mono.error(e): no normal way on").isEmpty();
        assertThat(rethrow.onException()).isNotEmpty();
    }

    @Test
    void aTimeoutCancelsAfterTheLockThroughDoFinallyButAroundOnErrorResume() {
        MethodFlow flow = lower("""
                class A {
                    reactor.core.publisher.Mono<Void> run(io.r2dbc.spi.Connection c, reactor.core.publisher.Mono<Void> work) {
                        return Mono.from(c.createStatement("SELECT pg_advisory_lock(1)").execute())
                                .then(work)
                                .onErrorResume(e -> Mono.from(c.createStatement("SELECT pg_advisory_unlock(1)").execute())
                                        .then(Mono.error(e)))
                                .doFinally(s -> log.info("done"))
                                .timeout(java.time.Duration.ofSeconds(5));
                    }
                }
                """).get(0);
        FlowNode cancel = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.ASSIGN
                        && (FlowLowering.CANCELLED + "timeout").equals(n.event().target()))
                .findFirst()
                .orElseThrow();
        FlowNode lock = flow.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.LOCK)
                .findFirst()
                .orElseThrow();
        FlowNode choice = flow.nodes().get(lock.next().get(0));
        assertThat(choice.event().kind())
                .as("after the lock: go on, or be cancelled")
                .isEqualTo(FlowEvent.Kind.BRANCH);
        assertThat(choice.next()).hasSize(2).contains(cancel.id());
        assertThat(flow.reaches(
                        List.of(cancel.id()),
                        false,
                        n -> flow.nodes().get(n).event().kind() == FlowEvent.Kind.LOCK))
                .as("a cancelled chain does not run onErrorResume's unlock")
                .isFalse();
        assertThat(flow.reaches(List.of(cancel.id()), false, n -> n == MethodFlow.EXCEPTIONAL_EXIT))
                .as("doFinally runs, then the timeout's error goes on")
                .isTrue();
        assertThat(flow.nodes().stream()
                        .filter(n -> n.event().kind() == FlowEvent.Kind.BRANCH)
                        .map(b -> flow.nodes().stream()
                                .filter(n -> n.next().contains(b.id()))
                                .findFirst()
                                .orElseThrow()
                                .event()
                                .kind()))
                .as("choices follow lock statements only (the work and doFinally's call add none)")
                .isNotEmpty()
                .containsOnly(FlowEvent.Kind.LOCK);
    }

    @Test
    void takeOfACountIsNoCancellation() {
        MethodFlow flow = lower("""
                class A {
                    reactor.core.publisher.Mono<Void> run(io.r2dbc.spi.Connection c, reactor.core.publisher.Mono<Void> work) {
                        return Mono.from(c.createStatement("SELECT pg_advisory_lock(1)").execute())
                                .then(work)
                                .take(1);
                    }
                }
                """).get(0);
        assertThat(flow.nodes()).noneMatch(n -> n.event().kind() == FlowEvent.Kind.BRANCH);
    }
}
