package io.github.pgadvisorylint.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How many distinct values the input of a hashed lock key takes at run time, as far as the code says:
 * a handful (a configuration value, an enum constant's name, a class name, a parameter every caller
 * passes a constant), many (ids, UUIDs, tenants, users, a column read row by row), or unknown. It decides
 * whether a 32-bit hash is worth a {@code weak-lock-key-hash} warning: by the birthday bound, n
 * distinct inputs share a 32-bit hash with probability about n^2/2^33, negligible for a handful and
 * likely for tens of thousands (RULES.md weak-lock-key-hash; F15).
 *
 * @param cardinality the class
 * @param evidence    what in the code says so, as a short phrase ("one key per row of the query",
 *                    "tenant"), or "" for {@link Cardinality#UNKNOWN}
 */
public record KeyPopulation(Cardinality cardinality, String evidence) {

    /** The classes, from fewest to most values. */
    public enum Cardinality {
        /** A small fixed set the code shows: configuration, names of code elements, constants at every call. */
        FEW,
        /** No evidence either way. */
        UNKNOWN,
        /** One value per entity, row, request or user. */
        MANY
    }

    /** No evidence. */
    public static final KeyPopulation UNKNOWN = new KeyPopulation(Cardinality.UNKNOWN, "");

    /** Words (of an identifier split at case changes, digits and underscores) that name an entity with many instances. */
    private static final Set<String> MANY_WORDS = Set.of(
            "id",
            "ids",
            "uuid",
            "guid",
            "tenant",
            "tenants",
            "user",
            "users",
            "username",
            "customer",
            "customers",
            "account",
            "accounts",
            "member",
            "order",
            "orders",
            "invoice",
            "payment",
            "entity",
            "record",
            "row",
            "rows",
            "document",
            "doc",
            "file",
            "path",
            "url",
            "uri",
            "email",
            "mail",
            "address",
            "phone",
            "session",
            "request",
            "instance",
            "submission",
            "portfolio",
            "device",
            "item",
            "items",
            "message",
            "event",
            "aggregate",
            "stream",
            "cart",
            "product",
            "sku",
            "slug",
            "number",
            "idempotency",
            "correlation",
            "trace",
            "owner",
            "subscription",
            "contract",
            "shipment",
            "ticket",
            "booking",
            "asset",
            "wallet",
            "transfer",
            "login",
            "person",
            "patient",
            "vehicle",
            "org",
            "organization",
            "organisation",
            "workspace",
            "project",
            "repo",
            "repository",
            "issue",
            "post",
            "comment",
            "token",
            "uid");

    /** Checks that both components are set. */
    public KeyPopulation {
        Objects.requireNonNull(cardinality, "cardinality");
        Objects.requireNonNull(evidence, "evidence");
    }

    /** @return a population of a handful of values, for the reason given */
    public static KeyPopulation few(String evidence) {
        return new KeyPopulation(Cardinality.FEW, evidence);
    }

    /** @return a population of many values, for the reason given */
    public static KeyPopulation many(String evidence) {
        return new KeyPopulation(Cardinality.MANY, evidence);
    }

    /**
     * Classifies by the identifiers the hashed input is written with: an entity word ({@code tenantSlug},
     * {@code order_id}, {@code userName}) says many. No word says a handful: names of topics, jobs or
     * tables are as open-ended as the code that chooses them, so a handful takes structural evidence
     * (see {@code HashInputs}).
     *
     * @param identifiers variable, field, method and column names, in the order read
     * @return a population of many, or {@link #UNKNOWN} when no word decides
     */
    public static KeyPopulation ofIdentifiers(List<String> identifiers) {
        for (String identifier : identifiers) {
            for (String w : words(identifier)) {
                if (MANY_WORDS.contains(w)) {
                    return many("a " + w + " value, one key per " + w);
                }
            }
        }
        return UNKNOWN;
    }

    /**
     * The population of a value derived from several inputs: many when one input is many, a handful
     * only when every input is (a combination of handfuls is still a handful), else unknown.
     *
     * @param parts the inputs' populations; an empty list gives {@link #UNKNOWN}
     * @return the combined population
     */
    public static KeyPopulation combine(List<KeyPopulation> parts) {
        KeyPopulation few = null;
        for (KeyPopulation p : parts) {
            if (p.cardinality == Cardinality.MANY) {
                return p;
            }
        }
        for (KeyPopulation p : parts) {
            if (p.cardinality == Cardinality.UNKNOWN) {
                return UNKNOWN;
            }
            few = few == null ? p : few;
        }
        return few != null ? few : UNKNOWN;
    }

    /**
     * @param identifier a Java or SQL identifier, e.g. {@code getTenantSlug}, {@code order_id}, {@code UUID}
     * @return its lower-case words without a leading {@code get}/{@code is}, e.g. {@code [tenant, slug]}
     */
    public static List<String> words(String identifier) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char prev = 0;
        for (int i = 0; i < identifier.length(); i++) {
            char c = identifier.charAt(i);
            boolean boundary = !Character.isLetter(c)
                    || (Character.isUpperCase(c)
                            && (Character.isLowerCase(prev)
                                    || (i + 1 < identifier.length()
                                            && Character.isLowerCase(identifier.charAt(i + 1))
                                            && Character.isUpperCase(prev))));
            if (boundary && cur.length() > 0) {
                out.add(cur.toString().toLowerCase(Locale.ROOT));
                cur.setLength(0);
            }
            if (Character.isLetter(c)) {
                cur.append(c);
            }
            prev = c;
        }
        if (cur.length() > 0) {
            out.add(cur.toString().toLowerCase(Locale.ROOT));
        }
        if (out.size() > 1 && (out.get(0).equals("get") || out.get(0).equals("is"))) {
            out.remove(0);
        }
        return out;
    }
}
