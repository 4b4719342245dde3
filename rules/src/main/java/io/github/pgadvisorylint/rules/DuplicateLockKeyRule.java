package io.github.pgadvisorylint.rules;

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
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import io.github.pgadvisorylint.core.rule.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code duplicate-lock-key}: acquisitions whose keys have the same value in the same key space but
 * were written independently (two literals, or two separately declared constants) in different
 * files; two-int keys whose namespace (first part) collides that way; and two different strings whose
 * hashes give the same key. Every colliding acquisition is reported, each with related locations to
 * the others. Silent for one named constant used in many places, for releases, for acquisitions of
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

    /** Creates the rule with its metadata and documentation page. */
    public DuplicateLockKeyRule() {
        super("duplicate-lock-key", Severity.WARNING,
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
        for (LockSite s : model.keyAcquisitions()) {
            LockKey k = s.key();
            // a key in test code sits next to a mock: never a second subsystem's choice
            if (k.space() == KeySpace.NONE || !k.parts().get(0).isKnown() || impossible(k) || model.inTestSources(s)) {
                continue;
            }
            groups.computeIfAbsent(k.space() + ":" + k.parts().get(0).value(), x -> new ArrayList<>()).add(s);
        }
        for (List<LockSite> group : groups.values()) {
            Map<LockSite, Map<LockSite, Collision>> partners = new LinkedHashMap<>();
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    Collision c = classify(model, group.get(i), group.get(j));
                    if (c != null) {
                        partners.computeIfAbsent(group.get(i), x -> new LinkedHashMap<>()).put(group.get(j), c);
                        partners.computeIfAbsent(group.get(j), x -> new LinkedHashMap<>()).put(group.get(i), c);
                    }
                }
            }
            for (Map.Entry<LockSite, Map<LockSite, Collision>> e : partners.entrySet()) {
                report(context, e.getKey(), e.getValue());
            }
        }
    }

    /** A two-int key with a part outside int never takes a lock (lock-key-out-of-range reports it). */
    private static boolean impossible(LockKey k) {
        return k.space() == KeySpace.INT_PAIR && k.parts().stream()
                .anyMatch(p -> p.isKnown() && (p.value() < Integer.MIN_VALUE || p.value() > Integer.MAX_VALUE));
    }

    private static Collision classify(LockModel model, LockSite a, LockSite b) {
        LockKey ka = a.key();
        LockKey kb = b.key();
        if (ka.space() != kb.space()) {
            return null;
        }
        boolean sameMode = a.function().mode() == b.function().mode();
        if (ka.isFullyKnown() && kb.isFullyKnown() && ka.canonical().equals(kb.canonical())) {
            if (differentHashInputs(ka, kb)) {
                boolean bothShared = a.function().mode() == LockMode.SHARED && sameMode;
                return bothShared ? null : Collision.HASH;
            }
            if (!sameMode) {
                return null; // shared and exclusive on one key: a reader/writer design
            }
            return independent(model, a, b, ka.parts().size()) ? Collision.KEY : null;
        }
        if (ka.space() == KeySpace.INT_PAIR && sameMode && independent(model, a, b, 1)) {
            return Collision.NAMESPACE;
        }
        return null;
    }

    private static boolean differentHashInputs(LockKey a, LockKey b) {
        for (int i = 0; i < a.parts().size(); i++) {
            KeyHash ha = a.parts().get(i).hash();
            KeyHash hb = b.parts().get(i).hash();
            if (ha != null && hb != null && ha.input() != null && hb.input() != null
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
    private static boolean independent(LockModel model, LockSite a, LockSite b, int n) {
        if (model.role(a) == SiteRole.HELPER_CALL && model.role(b) == SiteRole.HELPER_CALL
                && Objects.equals(a.declarationRegion(), b.declarationRegion())
                && a.key().parts().stream().limit(n).allMatch(p -> p.originName() == null)
                && b.key().parts().stream().limit(n).allMatch(p -> p.originName() == null)) {
            return false; // callers of one lock helper passing the same literal share the helper's purpose
        }
        boolean differs = false;
        for (int i = 0; i < n; i++) {
            KeyPart pa = a.key().parts().get(i);
            KeyPart pb = b.key().parts().get(i);
            differs |= !KeyFacts.identity(pa).equals(KeyFacts.identity(pb));
        }
        return differs && !a.path().equals(b.path());
    }

    private void report(RuleContext context, LockSite site, Map<LockSite, Collision> others) {
        Collision strongest = others.values().stream().min(Enum::compareTo).orElseThrow();
        List<RelatedLocation> related = new ArrayList<>();
        for (Map.Entry<LockSite, Collision> o : others.entrySet()) {
            LockSite other = o.getKey();
            String what = switch (o.getValue()) {
                case HASH -> "a different string hashes to the same key here: " + other.display() + " from "
                        + origins(other.key(), other.key().parts().size());
                case KEY -> "the same key is taken here: " + other.display() + " from "
                        + origins(other.key(), other.key().parts().size());
                case NAMESPACE -> "the same namespace " + other.key().parts().get(0).value() + " is used here: "
                        + other.display() + " from " + origins(other.key(), 1);
            };
            related.add(new RelatedLocation(other.region(), what));
        }
        int n = others.size();
        String count = n == 1 ? "1 other acquisition" : n + " other acquisitions";
        LockKey k = site.key();
        String message = switch (strongest) {
            case HASH -> site.display() + " takes the key " + keyText(k) + ", the value of " + inputs(k) + ", and "
                    + count + " take" + (n == 1 ? "s" : "") + " the same key from a different string (" + otherInputs(others)
                    + "): two different names take one lock, so unrelated work excludes each other. Use a 64-bit key "
                    + "(hashtextextended(text, seed), or the two-int form with a namespace) and check new names "
                    + "against the existing ones.";
            case KEY -> site.display() + " takes the key " + keyText(k) + " from " + origins(k, k.parts().size())
                    + ", and " + count + " take" + (n == 1 ? "s" : "")
                    + " the same key from a separately written value: two critical sections that look unrelated "
                    + "exclude each other (or were meant to share a constant). Declare every key once, in one key "
                    + "registry, and use that constant everywhere.";
            case NAMESPACE -> site.display() + " uses the namespace " + k.parts().get(0).value() + " from "
                    + origins(k, 1) + ", and " + count + " use" + (n == 1 ? "s" : "")
                    + " the same namespace from a separately written value: the two subsystems' per-entity locks "
                    + "collide whenever their ids are equal. Give each subsystem its own namespace constant, "
                    + "declared in one key registry.";
        };
        context.report(Severity.WARNING, site, message, related);
    }

    private static String keyText(LockKey key) {
        return key.space() == KeySpace.BIGINT ? key.parts().get(0).canonical() : key.canonical();
    }

    private static String origins(LockKey key, int n) {
        return key.parts().subList(0, n).stream().map(KeyFacts::describeOrigin).collect(Collectors.joining(" and "));
    }

    private static String inputs(LockKey key) {
        return key.parts().stream().filter(p -> p.hash() != null && p.hash().input() != null)
                .map(p -> KeyFacts.hashDisplay(p.hash())).collect(Collectors.joining(", "));
    }

    private static String otherInputs(Map<LockSite, Collision> others) {
        return others.entrySet().stream().filter(e -> e.getValue() == Collision.HASH)
                .map(e -> inputs(e.getKey().key())).distinct().collect(Collectors.joining(", "));
    }
}
