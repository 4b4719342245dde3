package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.keys.KeyFacts;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockMode;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code duplicate-lock-key}: acquisitions whose keys have the same value in the same key space but
 * were written independently (two literals, or two separately declared constants) in different
 * files; two-int keys whose namespace (first part) collides that way; and two different strings whose
 * hashes give the same key. Every colliding acquisition is reported, each with related locations to
 * the others (at most {@value #MAX_RELATED}, the nearest in path order; the message counts the rest).
 * Silent for one named constant used in many places, for releases, for acquisitions of
 * different modes on one key (a reader/writer design), across key spaces (F6), for the same
 * literal written twice in one file, and in test sources ({@code src/test/} and similar).
 */
public final class DuplicateLockKeyRule extends AbstractRule {

    /** How two acquisitions collide; declared from the strongest to the weakest. */
    private enum Collision {
        /** Two different strings hash to one key. */
        HASH,
        /** The whole key is equal, from independent origins. */
        KEY,
        /** Two-int keys share their first part from independent origins. */
        NAMESPACE
    }

    /** The most related locations one finding lists; the {@code keys} inventory has every site. */
    static final int MAX_RELATED = 10;

    /** Creates the rule with its metadata and documentation page. */
    public DuplicateLockKeyRule() {
        // precision: key values computed statically from literals, constants and hashes
        super(
                "duplicate-lock-key",
                Severity.WARNING,
                Precision.HIGH,
                "Two independently written advisory-lock keys have the same value.",
                "Advisory-lock keys share one number space per database. When two acquisitions in different "
                        + "files use the same key value from separately written literals or constants, or two "
                        + "two-int keys use the same namespace, or two different strings hash to the same key, "
                        + "unrelated work excludes each other: one job silently skips or waits for another.",
                List.of("correctness", "concurrency", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        // group candidates by key space and first part: every collision kind needs both
        LockModel model = context.model();
        Map<String, List<LockSite>> groups = new TreeMap<>();
        Map<SourceRegion, LockSite> byRegion = new HashMap<>();
        for (LockSite s : model.sites()) {
            byRegion.putIfAbsent(s.region(), s);
        }
        for (LockSite s : model.keyAcquisitions()) {
            LockKey k = s.key();
            // a key in test code sits next to a mock: never a second subsystem's choice
            if (k.space() == KeySpace.NONE || !k.parts().get(0).isKnown() || impossible(k) || model.inTestSources(s)) {
                continue;
            }
            if (helpersOwnFirstPart(model, s, byRegion.get(s.declarationRegion()))) {
                continue; // the helper's own site says it, once: its callers only pass the rest of the key
            }
            groups.computeIfAbsent(k.space() + ":" + k.parts().get(0).value(), x -> new ArrayList<>())
                    .add(s);
        }
        for (List<LockSite> group : groups.values()) {
            group.sort(Comparator.comparing(LockSite::region).thenComparing(LockSite::id));
            List<Site> sites = new ArrayList<>(group.size());
            for (LockSite s : group) {
                sites.add(new Site(model, s));
            }
            Counts counts = new Counts(sites);
            for (int i = 0; i < sites.size(); i++) {
                Partners p = counts.partners(sites.get(i));
                if (p.count > 0) {
                    nearest(sites, i, p);
                    report(context, sites.get(i).site, p);
                }
            }
        }
    }

    /**
     * The acquisitions one site collides with: how many, of which kinds, and the nearest
     * {@value #MAX_RELATED} in path order (a key shared by thousands of files would otherwise give every
     * finding thousands of related locations, and the report would grow with the square of the files).
     */
    private static final class Partners {
        int count;
        final Map<LockSite, Collision> nearest = new LinkedHashMap<>();
        final Set<Collision> kinds = EnumSet.noneOf(Collision.class);
        final Set<String> otherInputs = new TreeSet<>();
    }

    /** How far from a site {@link #nearest} looks for its related locations. */
    static final int NEAREST_SCAN = 4_096;

    /**
     * Fills {@link Partners#nearest}: the group is sorted by region, so the nearest partners in path
     * order are found by looking outwards from the site, comparing pair by pair, until enough are
     * found or {@value #NEAREST_SCAN} sites were looked at (bounded work per site).
     */
    private static void nearest(List<Site> sites, int i, Partners p) {
        Site a = sites.get(i);
        int want = Math.min(MAX_RELATED, p.count);
        for (int d = 1, seen = 0; d < sites.size() && p.nearest.size() < want && seen < NEAREST_SCAN; d++) {
            for (int j : new int[] {i - d, i + d}) {
                if (j < 0 || j >= sites.size() || p.nearest.size() >= want) {
                    continue;
                }
                seen++;
                Collision c = classify(a, sites.get(j));
                if (c != null) {
                    p.nearest.put(sites.get(j).site, c);
                }
            }
        }
    }

    /**
     * Counts every site's partners in time linear in the group, with the same answer as
     * {@link #classify} over every pair. Sites with the same key value, mode and hash inputs collide
     * with any other site the same way, up to {@link #independent}; "not independent" is "same file,
     * or same written origin, or the same lock helper's literal", three equalities whose union is
     * counted by inclusion and exclusion over tallies kept per class of sites.
     */
    private static final class Counts {
        /** Sites with one key value (fully known), mode and hash inputs, with their tallies. */
        private final Map<List<Object>, Tally> classes = new HashMap<>();
        /** The classes of each key value. */
        private final Map<String, List<Tally>> byValue = new HashMap<>();
        /** For two-int keys: sites by mode, and by key value and mode (the namespace comparison). */
        private final Map<LockMode, Tally> byMode = new EnumMap<>(LockMode.class);
        /** The same, only the two-int keys whose second part is not a known value (one key per entity). */
        private final Map<LockMode, Tally> byModeVarying = new EnumMap<>(LockMode.class);

        private final Map<List<Object>, Tally> byValueAndMode = new HashMap<>();

        Counts(List<Site> sites) {
            for (Site s : sites) {
                if (s.canonical != null) {
                    Tally t = classes.computeIfAbsent(List.of(s.canonical, s.mode, s.hashTags), k -> {
                        Tally n = new Tally(s);
                        byValue.computeIfAbsent(s.canonical, v -> new ArrayList<>())
                                .add(n);
                        return n;
                    });
                    t.add(s);
                    if (s.key.space() == KeySpace.INT_PAIR) {
                        byValueAndMode
                                .computeIfAbsent(List.of(s.canonical, s.mode), k -> new Tally(s))
                                .add(s);
                    }
                }
                if (s.key.space() == KeySpace.INT_PAIR) {
                    byMode.computeIfAbsent(s.mode, k -> new Tally(s)).add(s);
                    if (!s.key.parts().get(1).isKnown()) {
                        byModeVarying.computeIfAbsent(s.mode, k -> new Tally(s)).add(s);
                    }
                }
            }
        }

        Partners partners(Site a) {
            Partners p = new Partners();
            if (a.canonical != null) {
                for (Tally y : byValue.get(a.canonical)) {
                    Site b = y.first;
                    int n;
                    Collision c;
                    if (differentHashInputs(a.key, b.key)) {
                        boolean bothShared = a.mode == LockMode.SHARED && b.mode == LockMode.SHARED;
                        c = bothShared ? null : Collision.HASH;
                        n = bothShared ? 0 : y.size; // never a's own class: that has a's hash inputs
                    } else if (a.mode != b.mode) {
                        c = null; // shared and exclusive on one key: a reader/writer design
                        n = 0;
                    } else {
                        c = Collision.KEY;
                        n = y.size - y.dependents(a, a.key.parts().size());
                    }
                    if (c != null && n > 0) {
                        add(p, c, n);
                        if (c == Collision.HASH) {
                            p.otherInputs.add(b.inputs);
                        }
                    }
                }
            }
            if (a.key.space() == KeySpace.INT_PAIR) {
                // the same namespace: same mode, independent first parts, and not the same whole key; two keys whose
                // second parts are both known values are compared whole (distinct constants never meet), so a key
                // with a known second part meets only the per-entity keys of the namespace
                boolean varying = !a.key.parts().get(1).isKnown();
                Tally all = varying ? byMode.get(a.mode) : byModeVarying.get(a.mode);
                int n = all == null ? 0 : all.size - all.dependents(a, 1);
                Tally same = a.canonical == null || !varying ? null : byValueAndMode.get(List.of(a.canonical, a.mode));
                if (same != null) {
                    n -= same.size - same.dependents(a, 1);
                }
                if (n > 0) {
                    add(p, Collision.NAMESPACE, n);
                }
            }
            return p;
        }

        private static void add(Partners p, Collision c, int n) {
            p.count += n;
            p.kinds.add(c);
        }
    }

    /** A set of sites with how many share each file, origin and lock helper (and their combinations). */
    private static final class Tally {
        final Site first;
        int size;
        private final Map<List<Object>, Integer> counts = new HashMap<>();

        Tally(Site first) {
            this.first = first;
        }

        void add(Site s) {
            size++;
            bump(List.of("P", s.path));
            for (int n = 1; n <= s.key.parts().size(); n++) {
                String id = s.identity(n);
                Object h = s.helper(n);
                bump(List.of("I", n, id));
                bump(List.of("PI", n, s.path, id));
                if (h != null) {
                    bump(List.of("H", n, h));
                    bump(List.of("PH", n, s.path, h));
                    bump(List.of("IH", n, id, h));
                    bump(List.of("PIH", n, s.path, id, h));
                }
            }
        }

        private void bump(List<Object> key) {
            counts.merge(key, 1, Integer::sum);
        }

        private int count(List<Object> key) {
            return counts.getOrDefault(key, 0);
        }

        /**
         * @return how many of these sites are not independent of {@code a} over the first {@code n} parts
         *     (a itself included when it is one of them): same file, or same origin, or one helper's literal
         */
        int dependents(Site a, int n) {
            String id = a.identity(n);
            Object h = a.helper(n);
            int u = count(List.of("P", a.path)) + count(List.of("I", n, id)) - count(List.of("PI", n, a.path, id));
            if (h != null) {
                u += count(List.of("H", n, h))
                        - count(List.of("PH", n, a.path, h))
                        - count(List.of("IH", n, id, h))
                        + count(List.of("PIH", n, a.path, id, h));
            }
            return u;
        }
    }

    /** A two-int key with a part outside int never takes a lock (lock-key-out-of-range reports it). */
    private static boolean impossible(LockKey k) {
        return k.space() == KeySpace.INT_PAIR
                && k.parts().stream()
                        .anyMatch(p -> p.isKnown() && (p.value() < Integer.MIN_VALUE || p.value() > Integer.MAX_VALUE));
    }

    /** The facts of one site that {@link #classify} compares, computed once. */
    private static final class Site {
        final LockSite site;
        final LockKey key;
        final LockMode mode;
        final String canonical;
        final String path;
        final boolean helperCall;
        final SourceRegion declaration;
        final boolean firstPartLiteral;
        final boolean allPartsLiteral;
        final List<String> identities = new ArrayList<>();
        final String inputs;
        /** Per part, the hash function and input it is the value of, or "" when it is not a known hash. */
        final List<String> hashTags = new ArrayList<>();

        Site(LockModel model, LockSite site) {
            this.site = site;
            this.key = site.key();
            this.mode = site.function().mode();
            this.canonical = key.isFullyKnown() ? key.canonical() : null;
            this.path = site.path();
            this.helperCall = model.role(site) == SiteRole.HELPER_CALL;
            this.declaration = site.declarationRegion();
            this.firstPartLiteral = key.parts().get(0).originName() == null;
            this.allPartsLiteral = key.parts().stream().allMatch(x -> x.originName() == null);
            for (KeyPart part : key.parts()) {
                identities.add(KeyFacts.identity(part));
            }
            this.inputs = DuplicateLockKeyRule.inputs(key);
            for (KeyPart part : key.parts()) {
                KeyHash h = part.hash();
                hashTags.add(h != null && h.input() != null ? h.function() + "\u0000" + h.input() : "");
            }
        }

        /** @return the written origins of the first {@code n} parts, as one value */
        String identity(int n) {
            return n == 1 ? identities.get(0) : String.join("\u0000", identities.subList(0, n));
        }

        /**
         * @return for a lock helper's call whose first {@code n} parts are literals, the helper (its
         *     declaration, or {@link #NO_DECLARATION}); else null
         */
        Object helper(int n) {
            boolean literal = n == 1 ? firstPartLiteral : allPartsLiteral;
            return helperCall && literal ? Objects.requireNonNullElse(declaration, NO_DECLARATION) : null;
        }
    }

    /** The helper of a call whose declaration is not known: such calls are one helper for {@link #independent}. */
    private static final Object NO_DECLARATION = new Object();

    private static Collision classify(Site a, Site b) {
        LockKey ka = a.key;
        LockKey kb = b.key;
        if (ka.space() != kb.space()) {
            return null;
        }
        boolean sameMode = a.mode == b.mode;
        if (a.canonical != null && a.canonical.equals(b.canonical)) {
            if (differentHashInputs(ka, kb)) {
                boolean bothShared = a.mode == LockMode.SHARED && sameMode;
                return bothShared ? null : Collision.HASH;
            }
            if (!sameMode) {
                return null; // shared and exclusive on one key: a reader/writer design
            }
            return independent(a, b, ka.parts().size()) ? Collision.KEY : null;
        }
        if (ka.space() == KeySpace.INT_PAIR
                && sameMode
                && independent(a, b, 1)
                && !(ka.parts().get(1).isKnown() && kb.parts().get(1).isKnown())) {
            return Collision.NAMESPACE;
        }
        return null;
    }

    /**
     * @return true for a call of a lock helper whose first key part (a namespace, a fixed key) is the helper's own,
     *     written in its body ({@code pg_advisory_xact_lock(SKU_NS, sku)} called as {@code reserve(sku)}): that part
     *     collides at the helper's site, not at each of its calls
     */
    private static boolean helpersOwnFirstPart(LockModel model, LockSite site, LockSite declared) {
        return model.role(site) == SiteRole.HELPER_CALL
                && declared != null
                && declared != site
                && declared.key().parts().get(0).isKnown()
                && KeyFacts.identity(declared.key().parts().get(0))
                        .equals(KeyFacts.identity(site.key().parts().get(0)));
    }

    private static boolean differentHashInputs(LockKey a, LockKey b) {
        for (int i = 0; i < a.parts().size(); i++) {
            KeyHash ha = a.parts().get(i).hash();
            KeyHash hb = b.parts().get(i).hash();
            if (ha != null
                    && hb != null
                    && ha.input() != null
                    && hb.input() != null
                    && (!ha.input().equals(hb.input()) || ha.function() != hb.function())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the first {@code n} parts of two keys were written separately: some part differs in
     * origin, and the sites are in different files (RULES.md duplicate-lock-key). In one file, the same
     * value twice, even as two constants, is one author's one lock: two nested classes of one job that
     * serialise on one key declare it twice on purpose (seen in a real workflow server). Two calls of
     * one lock helper with the same literal are one lock too: the helper names its purpose (two
     * separately declared constants passed to one helper still collide).
     */
    private static boolean independent(Site a, Site b, int n) {
        if (a.helperCall
                && b.helperCall
                && Objects.equals(a.declaration, b.declaration)
                && (n == 1 ? a.firstPartLiteral && b.firstPartLiteral : a.allPartsLiteral && b.allPartsLiteral)) {
            return false; // callers of one lock helper passing the same literal share the helper's purpose
        }
        if (a.path.equals(b.path)) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!a.identities.get(i).equals(b.identities.get(i))) {
                return true;
            }
        }
        return false;
    }

    private void report(RuleContext context, LockSite site, Partners others) {
        Collision strongest = others.kinds.stream().min(Enum::compareTo).orElseThrow();
        List<RelatedLocation> related = new ArrayList<>();
        List<Map.Entry<LockSite, Collision>> nearest = new ArrayList<>(others.nearest.entrySet());
        nearest.sort(Comparator.comparing(e -> e.getKey().region()));
        for (Map.Entry<LockSite, Collision> o : nearest) {
            LockSite other = o.getKey();
            String what = switch (o.getValue()) {
                case HASH ->
                    "a different string hashes to the same key here: " + other.display() + " from "
                            + origins(other.key(), other.key().parts().size());
                case KEY ->
                    "the same key is taken here: " + other.display() + " from "
                            + origins(other.key(), other.key().parts().size());
                case NAMESPACE ->
                    "the same namespace " + other.key().parts().get(0).value() + " is used here: " + other.display()
                            + " from " + origins(other.key(), 1);
            };
            related.add(new RelatedLocation(other.region(), what));
        }
        int n = others.count;
        String count = n == 1 ? "1 other acquisition" : n + " other acquisitions";
        LockKey k = site.key();
        String message = switch (strongest) {
            case HASH ->
                site.display() + " takes the key " + keyText(k) + ", the value of " + inputs(k) + ", and "
                        + count + " take" + (n == 1 ? "s" : "") + " the same key from a different string ("
                        + listed(others.otherInputs)
                        + "): two different names take one lock, so unrelated work excludes each other. Use a 64-bit key "
                        + "(hashtextextended(text, seed), or the two-int form with a namespace) and check new names "
                        + "against the existing ones.";
            case KEY ->
                site.display() + " takes the key " + keyText(k) + " from "
                        + origins(k, k.parts().size())
                        + ", and " + count + " take" + (n == 1 ? "s" : "")
                        + " the same key from a separately written value: two critical sections that look unrelated "
                        + "exclude each other (or were meant to share a constant). Declare every key once, in one key "
                        + "registry, and use that constant everywhere.";
            case NAMESPACE ->
                site.display() + " uses the namespace " + k.parts().get(0).value() + " from "
                        + origins(k, 1) + ", and " + count + " use" + (n == 1 ? "s" : "")
                        + " the same namespace from a separately written value: the two subsystems' per-entity locks "
                        + "collide whenever their ids are equal. Give each subsystem its own namespace constant, "
                        + "declared in one key registry.";
        };
        if (n > related.size()) {
            message += " The " + related.size() + " nearest in path order are listed as related locations, and "
                    + (n - related.size()) + " more, see `pg-advisory-lint keys`.";
        }
        // two different strings hashing to one key is never meant; the same value written twice may be
        context.report(strongest == Collision.HASH ? Severity.ERROR : Severity.WARNING, site, message, related);
    }

    /** @return the first {@value #MAX_RELATED} strings, comma-separated, and how many more there are */
    private static String listed(Set<String> strings) {
        List<String> all = new ArrayList<>(strings);
        String head = String.join(", ", all.subList(0, Math.min(MAX_RELATED, all.size())));
        return all.size() > MAX_RELATED ? head + " and " + (all.size() - MAX_RELATED) + " more" : head;
    }

    private static String keyText(LockKey key) {
        return key.space() == KeySpace.BIGINT ? key.parts().get(0).canonical() : key.canonical();
    }

    private static String origins(LockKey key, int n) {
        return key.parts().subList(0, n).stream().map(KeyFacts::describeOrigin).collect(Collectors.joining(" and "));
    }

    private static String inputs(LockKey key) {
        return key.parts().stream()
                .filter(p -> p.hash() != null && p.hash().input() != null)
                .map(p -> KeyFacts.hashDisplay(p.hash()))
                .collect(Collectors.joining(", "));
    }
}
