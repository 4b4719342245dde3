package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyShapesTest {

    private static LockKey key(String... parts) {
        return new LockKey(
                KeySpace.ofArity(parts.length),
                Arrays.stream(parts)
                        .map(p -> KeyPart.of(KeyPart.Kind.UNKNOWN, p))
                        .toList());
    }

    @Test
    void callsAndHashesHaveAFunctionAndACountOfRunTimeInputs() {
        assertThat(KeyShapes.shape("lockId(db, schema)")).contains(new KeyShapes.Shape("lockId", 2));
        assertThat(KeyShapes.shape("Locks.lockId(this.db)")).contains(new KeyShapes.Shape("lockId", 1));
        assertThat(KeyShapes.shape("(db + \":\" + schema).hashCode()")).contains(new KeyShapes.Shape("hashCode", 2));
        assertThat(KeyShapes.shape("(\"jobs-\" + topic).hashCode()")).contains(new KeyShapes.Shape("hashCode", 1));
        assertThat(KeyShapes.shape("hashtext(? || '.' || ?)")).contains(new KeyShapes.Shape("hashtext", 2));
        assertThat(KeyShapes.shape("Objects.hash(NAMESPACE, tenant)")).contains(new KeyShapes.Shape("hash", 1));
        assertThat(KeyShapes.shape("key")).isEmpty();
        assertThat(KeyShapes.shape("a.b(c) + d(e)")).isEmpty();
        assertThat(KeyShapes.shape("f(\"a,b\")")).contains(new KeyShapes.Shape("f", 0));
    }

    @Test
    void onlyOneFunctionOverADifferentNumberOfInputsDiffers() {
        assertThat(KeyShapes.computedDifferently(key("lockId(db, schema)"), key("lockId(db)")))
                .contains(new KeyShapes.Difference(
                        0, new KeyShapes.Shape("lockId", 2), new KeyShapes.Shape("lockId", 1)));
        assertThat(KeyShapes.computedDifferently(key("lockId(a, b)"), key("lockId(x, y)")))
                .isEmpty();
        assertThat(KeyShapes.computedDifferently(key("lockId(a, b)"), key("keyOf(a)")))
                .isEmpty();
        assertThat(KeyShapes.computedDifferently(key("7", "name.hashCode()"), key("7", "(a + b).hashCode()")))
                .map(KeyShapes.Difference::part)
                .contains(1);
        assertThat(KeyShapes.computedDifferently(key("lockId(a, b)"), key("lockId(a)", "x")))
                .isEmpty();
    }

    @Test
    void knownPartsAreComparedByValueElsewhere() {
        LockKey known = new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(5, "5", null)));
        assertThat(KeyShapes.computedDifferently(known, key("lockId(a)"))).isEmpty();
    }
}
