package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.SourceRegion;
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
        assertThat(KeyFacts.pgLocks(bigint(-785388649))).isEqualTo(new KeyFacts.PgLocksRow(4294967295L, 3509578647L, 1));
    }

    @Test
    void intPairsShowBothPartsAsOidsWithObjsubid2() {
        assertThat(KeyFacts.pgLocks(pair(12, 77))).isEqualTo(new KeyFacts.PgLocksRow(12L, 77L, 2));
        assertThat(KeyFacts.pgLocks(pair(-1, Integer.MIN_VALUE))).isEqualTo(new KeyFacts.PgLocksRow(4294967295L, 2147483648L, 2));
        LockKey partly = new LockKey(KeySpace.INT_PAIR, List.of(KeyPart.known(12, "NS", null), KeyPart.of(KeyPart.Kind.PARAMETER, "id")));
        assertThat(KeyFacts.pgLocks(partly)).isEqualTo(new KeyFacts.PgLocksRow(12L, null, 2));
    }

    @Test
    void identityIsTheConstantNameOrTheLiteralsPlace() {
        SourceRegion a = new SourceRegion("A.java", 3, 10, 3, 14);
        SourceRegion b = new SourceRegion("B.java", 3, 10, 3, 14);
        KeyPart c1 = KeyPart.known(42, "K", a, "com.acme.Keys.K", null);
        KeyPart c2 = KeyPart.known(42, "Keys.K", b, "com.acme.Keys.K", null);
        assertThat(KeyFacts.identity(c1)).isEqualTo(KeyFacts.identity(c2));
        assertThat(KeyFacts.identity(KeyPart.known(42, "42", a))).isNotEqualTo(KeyFacts.identity(KeyPart.known(42, "42", b)));
    }

    @Test
    void integerValueReadsOutOfRangeSqlLiteralsLeftUnknown() {
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "9223372036854775808")))
                .isEqualTo(new BigInteger("9223372036854775808"));
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "-99999999999999999999::bigint")))
                .isEqualTo(new BigInteger("-99999999999999999999"));
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.UNKNOWN, "id % 3000000000"))).isNull();
        assertThat(KeyFacts.integerValue(KeyPart.of(KeyPart.Kind.COLUMN, "42"))).isNull();
    }
}
