package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@link Downstream} says can still be observed after a node of a tiny graph. */
class DownstreamTest {

    private static MethodFlow lowered(String body) {
        List<MethodFlow> flows =
                TinyGraphs.lower("class Job {\n void run(java.sql.Connection c, boolean flag) throws Exception {\n"
                        + body + "\n }\n}\n");
        return flows.get(0);
    }

    /** @return the id of the first node whose event is of that kind and names {@code name} as its target */
    private static int first(MethodFlow f, FlowEvent.Kind kind, String name) {
        return f.nodes().stream()
                .filter(n -> n.event().kind() == kind && name.equals(n.event().target()))
                .findFirst()
                .orElseThrow()
                .id();
    }

    @Test
    void aVariableIsLiveUntilItsLastReadAndNotAcrossAWriteOfItAgain() {
        MethodFlow f = lowered("""
                boolean locked = flag;
                audit(locked);
                if (locked) { c.commit(); }
                locked = false;
                work();
                if (locked) { c.rollback(); }
                """);
        Downstream d = Downstream.of(f, e -> null, Map.of(), fn -> Set.of());
        int firstWrite = first(f, FlowEvent.Kind.ASSIGN, "locked");
        assertThat(d.live(firstWrite + 1, "locked")).isTrue(); // read by audit(locked) and the first if

        int rewrite = f.nodes().stream()
                .filter(n -> n.event().kind() == FlowEvent.Kind.ASSIGN
                        && "locked".equals(n.event().target())
                        && "$const:false".equals(n.event().path()))
                .findFirst()
                .orElseThrow()
                .id();
        // between the first if and the write of false, the old value is never read again
        assertThat(d.live(rewrite, "locked")).isFalse();
        assertThat(d.mentions(rewrite, "locked")).isTrue(); // (the over-approximation the pruning uses)
        assertThat(d.live(rewrite + 1, "locked")).isTrue(); // the new value is read by the second if
    }
}
