package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.keys.KeyFacts;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code lock-key-out-of-range}: a key value PostgreSQL cannot take (outside {@code int} in the
 * two-int form, outside {@code bigint} in the one-key form), and an unsigned 32-bit checksum
 * (CRC32, Adler32) of one input that reaches the database as different values at different sites
 * (cast to {@code int} at one, not at another), so the two never exclude each other.
 */
public final class LockKeyOutOfRangeRule extends AbstractRule {

    private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** Creates the rule with its metadata and documentation page. */
    public LockKeyOutOfRangeRule() {
        // precision: a literal outside int4/int8 or a checksum's sign, from the text alone
        super(
                "lock-key-out-of-range",
                Severity.ERROR,
                Precision.VERY_HIGH,
                "Advisory-lock key value PostgreSQL cannot take, or a checksum whose sign changes between sites.",
                "The two-int form takes two int4 arguments and the one-key form one int8: a literal outside "
                        + "that range makes every call fail. An unsigned 32-bit checksum (CRC32, Adler32) passed as a "
                        + "long at one site and cast to int at another reaches PostgreSQL as two different keys, "
                        + "so the two sites never exclude each other.",
                List.of("correctness", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        for (LockSite site : context.model().keySites()) {
            List<KeyPart> parts = site.key().parts();
            for (int i = 0; i < parts.size(); i++) {
                if (site.key().space() == KeySpace.INT_PAIR && boundTooWide(context, site, i)) {
                    break;
                }
                BigInteger v = KeyFacts.integerValue(parts.get(i));
                if (v == null) {
                    continue;
                }
                if (site.key().space() == KeySpace.INT_PAIR && (v.compareTo(INT_MIN) < 0 || v.compareTo(INT_MAX) > 0)) {
                    context.report(
                            Severity.ERROR,
                            site,
                            site.display() + ": the " + (i == 0 ? "first" : "second")
                                    + " argument is " + v
                                    + ", outside int (-2147483648..2147483647), but the two-key form takes"
                                    + " two int arguments: every call fails (\"integer out of range\", or \"function "
                                    + site.function().sqlName()
                                    + "(integer, bigint) does not exist\" when the value arrives as"
                                    + " a bigint). Use the one-bigint form for large keys, or keep both parts within int.",
                            List.of());
                    break;
                }
                if (site.key().space() == KeySpace.BIGINT && (v.compareTo(LONG_MIN) < 0 || v.compareTo(LONG_MAX) > 0)) {
                    context.report(
                            Severity.ERROR,
                            site,
                            site.display() + ": the key " + v + " is outside bigint"
                                    + " (-9223372036854775808..9223372036854775807): PostgreSQL reads it as numeric and finds"
                                    + " no " + site.function().sqlName() + "(numeric), so every call fails.",
                            List.of());
                    break;
                }
            }
        }
        checksumSigns(context);
    }

    /**
     * A 64-bit Java value bound as one half of the two-int form (F20): as {@code bigint} every call fails
     * ({@code function ...(integer, bigint) does not exist}); an id, sequence value or OID cast to
     * {@code int} in the SQL ({@link KeyPart.Bound#ID_CAST_TO_INT4}) fails once it passes 2^31-1.
     *
     * @return true when reported
     */
    private static boolean boundTooWide(RuleContext context, LockSite site, int i) {
        KeyPart p = site.key().parts().get(i);
        String which = i == 0 ? "first" : "second";
        if (p.bound() == KeyPart.Bound.INT8) {
            context.report(
                    Severity.ERROR,
                    site,
                    site.display() + ": the " + which + " argument, " + p.expression() + ", is a Java long bound as"
                            + " bigint, but the two-key form takes two int arguments and has no "
                            + site.function().sqlName()
                            + "(integer, bigint): every call fails with \"function does not exist\" (F20), whatever the"
                            + " value. Use the one-bigint form for a 64-bit value, or bind an int that really fits.",
                    List.of());
            return true;
        }
        if (p.bound() == KeyPart.Bound.CHECKSUM_CAST_TO_INT4) {
            context.report(
                    Severity.ERROR,
                    site,
                    site.display() + ": the " + which + " argument, " + p.expression() + ", is "
                            + (p.hash().function() == KeyHash.Function.CRC32 ? "a CRC32" : "an Adler32")
                            + " checksum, an unsigned 32-bit value (0 to 4294967295), cast to"
                            + " int in the SQL: every value above 2147483647, about half of them, fails with \"integer"
                            + " out of range\" (F20). Convert it in Java first ((int) crc.getValue() keeps the bits), or"
                            + " use the one-bigint form.",
                    List.of());
            return true;
        }
        if (p.bound() == KeyPart.Bound.ID_CAST_TO_INT4) {
            context.report(
                    Severity.ERROR,
                    site,
                    site.display() + ": the " + which + " argument, " + p.expression() + ", is a 64-bit id cast to int"
                            + " in the SQL: once its value passes 2147483647 every call fails with \"integer out of range\""
                            + " (F20). Use the one-bigint form for ids, or keep the id out of the two-key form.",
                    List.of());
            return true;
        }
        return false;
    }

    /** One checksum of one input in one key position, reaching PostgreSQL as different values. */
    private void checksumSigns(RuleContext context) {
        Map<String, List<LockSite>> groups = new TreeMap<>();
        Map<LockSite, KeyPart> partOf = new LinkedHashMap<>();
        for (LockSite site : context.model().keyAcquisitions()) {
            List<KeyPart> parts = site.key().parts();
            for (int i = 0; i < parts.size(); i++) {
                KeyPart p = parts.get(i);
                KeyHash h = p.hash();
                if (p.isKnown()
                        && h != null
                        && h.input() != null
                        && (h.function() == KeyHash.Function.CRC32 || h.function() == KeyHash.Function.ADLER32)) {
                    groups.computeIfAbsent(
                                    site.key().space() + "/" + i + "/" + h.function() + "/" + h.input(),
                                    x -> new ArrayList<>())
                            .add(site);
                    partOf.put(site, p);
                }
            }
        }
        for (List<LockSite> group : groups.values()) {
            if (group.stream().map(s -> partOf.get(s).value()).distinct().count() < 2) {
                continue;
            }
            for (LockSite site : group) {
                KeyPart mine = partOf.get(site);
                List<RelatedLocation> related = new ArrayList<>();
                for (LockSite other : group) {
                    KeyPart theirs = partOf.get(other);
                    if (!theirs.value().equals(mine.value())) {
                        related.add(new RelatedLocation(
                                other.region(),
                                "the same checksum reaches PostgreSQL as " + theirs.value() + " here ("
                                        + theirs.expression() + ")"));
                    }
                }
                String sum = KeyFacts.hashDisplay(mine.hash());
                String elsewhere = group.stream()
                        .map(o -> partOf.get(o).value())
                        .filter(v -> !v.equals(mine.value()))
                        .distinct()
                        .map(String::valueOf)
                        .collect(Collectors.joining(" or "));
                context.report(
                        Severity.ERROR,
                        site,
                        site.display() + ": " + sum + " is an unsigned 32-bit value; here"
                                + " it reaches PostgreSQL as " + mine.value() + " (" + mine.expression() + "), but as "
                                + elsewhere
                                + " at " + (related.size() == 1 ? "another site" : related.size() + " other sites")
                                + " (a cast to int changes its sign): the sites take different locks and never exclude each"
                                + " other. Convert the checksum the same way everywhere, in one helper.",
                        related);
            }
        }
    }
}
