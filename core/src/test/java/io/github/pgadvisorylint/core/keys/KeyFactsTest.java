package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pg_locks columns (PostgreSQL docs "pg_locks", RULES.md F6), origin identities and literal values. */
class KeyFactsTest {

    private static LockKey bigint(long v) {
        return new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(v, Long.toString(v), null)));
    }

    private static LockKey pair(long a, long b) {
        return new LockKey(KeySpace.INT_PAIR, List.of(KeyPart.known(a, "a", null), KeyPart.known(b, "b", null)));
    }

    @Test
    void bigintKeysSplitIntoUnsignedHighAndLowWordsWithObjsubid1() {
        assertThat(KeyFacts.pgLocks(bigint(9001))).isEqualTo(new KeyFacts.PgLocksRow(0L, 9001L, 1));
        assertThat(KeyFacts.pgLocks(bigint((1L << 32) | 5))).isEqualTo(new KeyFacts.PgLocksRow(1L, 5L, 1));
        assertThat(KeyFacts.pgLocks(bigint(-1))).isEqualTo(new KeyFacts.PgLocksRow(4294967295L, 4294967295L, 1));
        assertThat(KeyFacts.pgLocks(bigint(Long.MIN_VALUE))).isEqualTo(new KeyFacts.PgLocksRow(2147483648L, 0L, 1));
        // hashtext('abc') = -785388649 (F15): a negative bigint shows classid 4294967295
        assertThat(KeyFacts.pgLocks(bigint(-785388649)))
                .isEqualTo(new KeyFacts.PgLocksRow(4294967295L, 3509578647L, 1));
    }

    @Test
    void decodeIsTheInverseOfPgLocksForEveryKnownKey() {
        for (long v : new long[] {0, 9001, (1L << 32) | 5, -1, Long.MIN_VALUE, Long.MAX_VALUE, -785388649}) {
            KeyFacts.PgLocksRow row = KeyFacts.pgLocks(bigint(v));
            KeyFacts.DecodedKey back = KeyFacts.decode(row.classid(), row.objid(), row.objsubid());
            assertThat(back).isEqualTo(new KeyFacts.DecodedKey(KeySpace.BIGINT, List.of(v)));
        }
        for (long[] p : new long[][] {{12, 77}, {-1, Integer.MIN_VALUE}, {Integer.MAX_VALUE, 0}}) {
            KeyFacts.PgLocksRow row = KeyFacts.pgLocks(pair(p[0], p[1]));
            KeyFacts.DecodedKey back = KeyFacts.decode(row.classid(), row.objid(), row.objsubid());
            assertThat(back.space()).isEqualTo(KeySpace.INT_PAIR);
            assertThat(back.values()).containsExactly(p[0], p[1]);
        }
        assertThat(KeyFacts.decode(12, 77, 2).value()).isEqualTo("12, 77");
        assertThat(KeyFacts.decode(0, 9001, 1).value()).isEqualTo("9001");
        assertThat(KeyFacts.decode(0, 9001, 1).spaceName()).isEqualTo("bigint");
        assertThat(catchThrowable(() -> KeyFacts.decode(0, 1, 3))).isInstanceOf(IllegalArgumentException.class);
        assertThat(catchThrowable(() -> KeyFacts.decode(1L << 32, 1, 1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void intPairsShowBothPartsAsOidsWithObjsubid2() {
        assertThat(KeyFacts.pgLocks(pair(12, 77))).isEqualTo(new KeyFacts.PgLocksRow(12L, 77L, 2));
        assertThat(KeyFacts.pgLocks(pair(-1, Integer.MIN_VALUE)))
                .isEqualTo(new KeyFacts.PgLocksRow(4294967295L, 2147483648L, 2));
        LockKey partly = new LockKey(
                KeySpace.INT_PAIR, List.of(KeyPart.known(12, "NS", null), KeyPart.of(KeyPart.Kind.PARAMETER, "id")));
        assertThat(KeyFacts.pgLocks(partly)).isEqualTo(new KeyFacts.PgLocksRow(12L, null, 2));
    }

    @Test
    void identityIsTheConstantNameOrTheLiteralsPlace() {
        SourceRegion a = new SourceRegion("A.java", 3, 10, 3, 14);
        SourceRegion b = new SourceRegion("B.java", 3, 10, 3, 14);
        KeyPart c1 = KeyPart.known(42, "K", a, "com.acme.Keys.K", null);
        KeyPart c2 = KeyPart.known(42, "Keys.K", b, "com.acme.Keys.K", null);
        assertThat(KeyFacts.identity(c1)).isEqualTo(KeyFacts.identity(c2));
        assertThat(KeyFacts.identity(KeyPart.known(42, "42", a)))
                .isNotEqualTo(KeyFacts.identity(KeyPart.known(42, "42", b)));
    }

    @Test
    void integerValueReadsOutOfRangeSqlLiteralsLeftUnknown() {
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "9223372036854775808")))
                .isEqualTo(new BigInteger("9223372036854775808"));
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "-99999999999999999999::bigint")))
                .isEqualTo(new BigInteger("-99999999999999999999"));
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "id % 3000000000")))
                .isNull();
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.COLUMN, "42"))).isNull();
    }
}
