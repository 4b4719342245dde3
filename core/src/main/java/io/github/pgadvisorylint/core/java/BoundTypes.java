package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.SimpleName;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The SQL type a Java value bound to a lock-key parameter arrives as (F20: the two-int form has no
 * {@code bigint} variant). JDBC {@code setLong} and a {@code long}/{@code Long} passed to
 * {@code setObject}, a {@code JdbcTemplate} or a {@code bind} arrive as {@code int8}; {@code setInt}
 * and {@code int}/{@code Integer}/{@code short} as {@code int4} (PgJDBC's parameter types).
 */
final class BoundTypes {

    /** A cast of the parameter to a 32-bit integer in the SQL: {@code ?::int}, {@code CAST(? AS integer)}. */
    private static final Pattern INT4_CAST =
            Pattern.compile("(?is).*(::\\s*(int|int4|integer)\\b|\\bas\\s+(int|int4|integer)\\s*\\)).*");

    private BoundTypes() {}

    /**
     * @param bound   the Java expression bound to the parameter
     * @param sqlText the SQL text of the key argument that holds the parameter, e.g. {@code ?} or {@code ?::int}
     * @param hash    what {@code KeyEvaluator} found the value to be a hash or checksum of, or null
     * @return how it arrives; {@link KeyPart.Bound#UNKNOWN} when the Java type is not visible
     */
    static KeyPart.Bound of(Expression bound, String sqlText, KeyHash hash) {
        KeyPart.Bound javaType = javaType(bound);
        if (javaType == KeyPart.Bound.INT8
                && INT4_CAST.matcher(sqlText).matches()
                && hash != null
                && (hash.function() == KeyHash.Function.CRC32 || hash.function() == KeyHash.Function.ADLER32)) {
            return KeyPart.Bound.CHECKSUM_CAST_TO_INT4; // getValue() is unsigned: half its values pass 2^31-1
        }
        if (javaType == KeyPart.Bound.INT8 && INT4_CAST.matcher(sqlText).matches()) {
            // a counter cast to int stays small; an id, key, sequence value or OID grows past 2^31-1
            return growsPastInt(bound) ? KeyPart.Bound.ID_CAST_TO_INT4 : KeyPart.Bound.UNKNOWN;
        }
        if (javaType == KeyPart.Bound.INT8 && sqlText.contains("::")) {
            return KeyPart.Bound.UNKNOWN; // cast to another type: not this fact
        }
        return javaType;
    }

    /** Whether the names the expression reads say id, primary key, sequence or OID ({@code rowId}, {@code table_oid}). */
    private static boolean growsPastInt(Expression e) {
        for (SimpleName n : e.findAll(SimpleName.class)) {
            for (String w : KeyPopulation.words(n.getIdentifier())) {
                if (GROWING.contains(w)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static final Set<String> GROWING = Set.of("id", "pk", "oid", "seq", "sequence");

    private static KeyPart.Bound javaType(Expression e) {
        if (e.getParentNode().orElse(null) instanceof MethodCallExpr setter
                && setter.getArguments().size() >= 2
                && setter.getArgument(1) == e) {
            switch (setter.getNameAsString()) {
                case "setLong":
                    return KeyPart.Bound.INT8;
                case "setInt", "setShort":
                    return KeyPart.Bound.INT4;
                case "setObject", "bind", "setParameter":
                    break;
                default:
                    if (setter.getNameAsString().startsWith("set")) {
                        return KeyPart.Bound.UNKNOWN;
                    }
            }
        }
        return typeOf(e);
    }

    private static KeyPart.Bound typeOf(Expression e) {
        if (e instanceof EnclosedExpr p) {
            return typeOf(p.getInner());
        }
        if (e instanceof CastExpr c) {
            return ofTypeName(c.getType().asString());
        }
        if (e instanceof LongLiteralExpr) {
            return KeyPart.Bound.INT8;
        }
        if (e instanceof IntegerLiteralExpr) {
            return KeyPart.Bound.INT4;
        }
        if (e instanceof NameExpr n) {
            String type = JavaScopes.declaredType(n.getNameAsString(), n);
            return type == null ? KeyPart.Bound.UNKNOWN : ofTypeName(type);
        }
        return KeyPart.Bound.UNKNOWN;
    }

    private static KeyPart.Bound ofTypeName(String type) {
        return switch (JavaScopes.simpleTypeName(type).toLowerCase(Locale.ROOT)) {
            case "long" -> KeyPart.Bound.INT8;
            case "int", "integer", "short" -> KeyPart.Bound.INT4;
            default -> KeyPart.Bound.UNKNOWN;
        };
    }
}
