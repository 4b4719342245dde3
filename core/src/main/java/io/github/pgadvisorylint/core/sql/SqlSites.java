package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.SourceRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** Turns the SQL front end's calls into model values shared by the Java and SQL file front ends. */
public final class SqlSites {

    private SqlSites() {
    }

    /**
     * @param call   a lock call found by {@link SqlAnalyzer}
     * @param region maps a {@code [start, end)} range of the analysed SQL text to a file region, or null
     * @return its key: one part per argument, known values kept with their literal's region as origin
     */
    public static LockKey key(SqlLockCall call, BiFunction<Integer, Integer, SourceRegion> region) {
        List<KeyPart> parts = new ArrayList<>();
        for (SqlArgument a : call.arguments()) {
            if (a.kind() == KeyPart.Kind.KNOWN && a.value() != null) {
                parts.add(KeyPart.known(a.value(), a.text(), region.apply(a.start(), a.end())));
            } else {
                parts.add(KeyPart.of(a.kind() == KeyPart.Kind.KNOWN ? KeyPart.Kind.UNKNOWN : a.kind(), a.text()));
            }
        }
        return new LockKey(KeySpace.ofArity(parts.size()), parts);
    }
}
