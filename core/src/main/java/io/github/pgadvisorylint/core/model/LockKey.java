package io.github.pgadvisorylint.core.model;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The key of one advisory-lock call: its key space and its parts (one for {@link KeySpace#BIGINT},
 * two for {@link KeySpace#INT_PAIR}, none for {@link KeySpace#NONE}).
 *
 * @param space the key space
 * @param parts the arguments in order; immutable
 */
public record LockKey(KeySpace space, List<KeyPart> parts) {

    /** Copies the parts; throws {@link IllegalArgumentException} when their count does not fit the space. */
    public LockKey {
        Objects.requireNonNull(space, "space");
        parts = List.copyOf(parts);
        int expected = space == KeySpace.BIGINT ? 1 : space == KeySpace.INT_PAIR ? 2 : 0;
        if (parts.size() != expected) {
            throw new IllegalArgumentException(space + " key needs " + expected + " parts, got " + parts.size());
        }
    }

    /** The key of {@code pg_advisory_unlock_all()}. */
    public static final LockKey NONE = new LockKey(KeySpace.NONE, List.of());

    /** @return true when every part is known */
    public boolean isFullyKnown() {
        return space != KeySpace.NONE && parts.stream().allMatch(KeyPart::isKnown);
    }

    /** @return true when some part is a per-row column */
    public boolean hasColumnPart() {
        return parts.stream().anyMatch(p -> p.kind() == KeyPart.Kind.COLUMN);
    }

    /**
     * Whether two keys may name the same lock: same space, and every pair of parts either equal in
     * canonical form or at least one of them not known.
     *
     * @param other another key
     * @return false only when the keys are certainly different
     */
    public boolean mayEqual(LockKey other) {
        if (space != other.space) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            KeyPart a = parts.get(i);
            KeyPart b = other.parts.get(i);
            if (a.isKnown() && b.isKnown() && !a.value().equals(b.value())) {
                return false;
            }
        }
        return true;
    }

    /** @return a canonical text such as {@code (42)} or {@code (1, ?)} */
    public String canonical() {
        return parts.stream().map(KeyPart::canonical).collect(Collectors.joining(", ", "(", ")"));
    }

    /** @return the arguments as written, e.g. {@code (9001)} or {@code (0, id)} */
    public String display() {
        return parts.stream().map(KeyPart::expression).collect(Collectors.joining(", ", "(", ")"));
    }
}
