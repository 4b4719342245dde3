package io.github.pgadvisorylint.core.keys;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every advisory-lock key of a lock model, for the {@code keys} command: one entry per key value
 * (fully known keys, across files) or per key expression and file (keys not known statically), with
 * the {@code pg_locks} columns it shows as, where its value was written, the functions that use it
 * and every site. Sorted: one-bigint keys before two-int keys, known before unknown, by value, then
 * by first site. {@code pg_advisory_unlock_all()} has no key and is not listed.
 *
 * @param entries the keys, sorted
 */
public record KeyInventory(List<Entry> entries) {

    /** Copies the list. */
    public KeyInventory {
        entries = List.copyOf(entries);
    }

    /**
     * One key.
     *
     * @param space     its key space
     * @param key       the key as the first site writes it (values are the same at every site when known)
     * @param known     true when every part is known statically
     * @param pgLocks   the {@code pg_locks} columns; unknown parts are null
     * @param origins   where each site's value comes from, distinct, sorted: a constant's qualified name
     *                  and declaration, a literal's location, or the expression of an unknown part;
     *                  for two-int keys the two parts joined by {@code ", "}
     * @param functions the functions using the key, sorted by name
     * @param sites     every site, sorted by location
     */
    public record Entry(
            KeySpace space,
            LockKey key,
            boolean known,
            KeyFacts.PgLocksRow pgLocks,
            List<String> origins,
            List<String> functions,
            List<LockSite> sites) {

        /** Copies the lists. */
        public Entry {
            origins = List.copyOf(origins);
            functions = List.copyOf(functions);
            sites = List.copyOf(sites);
        }

        /** @return {@code bigint} or {@code int, int} */
        public String spaceName() {
            return space == KeySpace.BIGINT ? "bigint" : "int, int";
        }

        /** @return the value, e.g. {@code 9001} or {@code 12, 77}; unknown parts as their expression */
        public String value() {
            return key.parts().stream()
                    .map(p -> p.isKnown() ? Long.toString(p.value()) : p.expression())
                    .collect(Collectors.joining(", "));
        }

        /** @return the levels of {@link #functions()}, e.g. {@code session, transaction} */
        public List<String> levels() {
            return sites.stream()
                    .map(s -> s.function().level().name().toLowerCase(Locale.ROOT))
                    .distinct()
                    .sorted()
                    .toList();
        }

        /** @return the modes of {@link #functions()}, e.g. {@code exclusive, shared} */
        public List<String> modes() {
            return sites.stream()
                    .map(s -> s.function().mode().name().toLowerCase(Locale.ROOT))
                    .distinct()
                    .sorted()
                    .toList();
        }
    }

    /**
     * @param model a lock model
     * @return its inventory
     */
    public static KeyInventory of(LockModel model) {
        Map<String, List<LockSite>> groups = new LinkedHashMap<>();
        for (LockSite s : model.sites()) {
            LockKey k = s.key();
            if (k.space() == KeySpace.NONE) {
                continue;
            }
            String id = k.space() + (k.isFullyKnown() ? k.canonical() : k.canonical() + "@" + s.path());
            groups.computeIfAbsent(id, x -> new ArrayList<>()).add(s);
        }
        List<Entry> entries = new ArrayList<>();
        for (List<LockSite> sites : groups.values()) {
            List<LockSite> sorted = sites.stream()
                    .sorted(Comparator.comparing(LockSite::region).thenComparing(LockSite::id))
                    .toList();
            LockKey key = sorted.get(0).key();
            TreeSet<String> origins = new TreeSet<>();
            TreeSet<String> functions = new TreeSet<>();
            for (LockSite s : sorted) {
                origins.add(
                        s.key().parts().stream().map(KeyFacts::describeOrigin).collect(Collectors.joining(", ")));
                functions.add(s.function().sqlName());
            }
            entries.add(new Entry(
                    key.space(),
                    key,
                    key.isFullyKnown(),
                    KeyFacts.pgLocks(key),
                    List.copyOf(origins),
                    List.copyOf(functions),
                    sorted));
        }
        entries.sort(ORDER);
        return new KeyInventory(entries);
    }

    private static final Comparator<Entry> ORDER = Comparator.<Entry>comparingInt(
                    e -> e.space().ordinal())
            .thenComparing(e -> !e.known())
            .thenComparing(KeyInventory::valuesOrder)
            .thenComparing(e -> e.sites().get(0).region());

    private static int valuesOrder(Entry a, Entry b) {
        for (int i = 0; i < a.key().parts().size(); i++) {
            KeyPart pa = a.key().parts().get(i);
            KeyPart pb = b.key().parts().get(i);
            if (pa.isKnown() != pb.isKnown()) {
                return pa.isKnown() ? -1 : 1;
            }
            if (pa.isKnown() && !pa.value().equals(pb.value())) {
                return Long.compare(pa.value(), pb.value());
            }
        }
        return 0;
    }

    /**
     * The keys a live lock is: for the {@code locks} command, which matches {@code pg_locks} rows to code.
     *
     * @param row a {@code pg_locks} row with both columns known ({@code objsubid} 1 or 2)
     * @return the entries with a fully known key that shows as exactly this row (at most one), in inventory order
     */
    public List<Entry> taking(KeyFacts.PgLocksRow row) {
        return entries.stream()
                .filter(e -> e.known() && e.pgLocks().equals(row))
                .toList();
    }

    /**
     * The keys a live lock may be when the code computes them at run time.
     *
     * @param row a {@code pg_locks} row with both columns known
     * @return the entries of the same key space whose key is not fully known and whose known parts agree with the
     *     row (a two-{@code int} key {@code (12, customerId)} may be the lock {@code (12, 77)}; any unknown
     *     {@code bigint} key may be any {@code bigint} lock), in inventory order
     */
    public List<Entry> possiblyTaking(KeyFacts.PgLocksRow row) {
        return entries.stream()
                .filter(e -> !e.known()
                        && e.pgLocks().objsubid() == row.objsubid()
                        && (e.pgLocks().classid() == null
                                || e.pgLocks().classid().equals(row.classid()))
                        && (e.pgLocks().objid() == null || e.pgLocks().objid().equals(row.objid())))
                .toList();
    }

    /** @return how many entries have a fully known key */
    public long knownCount() {
        return entries.stream().filter(Entry::known).count();
    }

    /** @return how many sites the entries list */
    public long siteCount() {
        return entries.stream().mapToLong(e -> e.sites().size()).sum();
    }
}
