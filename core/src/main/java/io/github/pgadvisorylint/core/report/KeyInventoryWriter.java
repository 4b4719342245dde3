package io.github.pgadvisorylint.core.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.keys.KeyFacts;
import io.github.pgadvisorylint.core.keys.KeyFacts.PgLocksRow;
import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.keys.KeyInventory.Entry;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Writes a {@link KeyInventory} as text, JSON, CSV (RFC 4180) or Markdown. Output is deterministic:
 * the inventory's order, {@code \n} line ends (CSV: {@code \r\n}, as RFC 4180 says), no timestamps and
 * no absolute paths.
 */
public final class KeyInventoryWriter {

    /** The formats of the {@code keys} command. */
    public enum Format {
        TEXT,
        JSON,
        CSV,
        MARKDOWN;

        /**
         * @param word {@code text}, {@code json}, {@code csv} or {@code markdown} (any case)
         * @return the format
         * @throws IllegalArgumentException for any other word
         */
        public static Format parse(String word) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(word.trim())) {
                    return f;
                }
            }
            throw new IllegalArgumentException("unknown format '" + word + "' (allowed: text, json, csv, markdown)");
        }
    }

    /** The CSV columns, one row per site. */
    static final List<String> CSV_COLUMNS = List.of(
            "key_space",
            "key",
            "known",
            "classid",
            "objid",
            "objsubid",
            "origin",
            "function",
            "level",
            "mode",
            "path",
            "line",
            "column",
            "call",
            "method");

    private KeyInventoryWriter() {}

    /**
     * @param inventory the keys
     * @param format    how to write them
     * @param out       where; not closed
     * @throws IOException when writing fails
     */
    public static void write(KeyInventory inventory, Format format, Writer out) throws IOException {
        switch (format) {
            case TEXT -> text(inventory, out);
            case JSON -> ReportSupport.writeJson(json(inventory), out);
            case CSV -> csv(inventory, out);
            case MARKDOWN -> markdown(inventory, out);
        }
    }

    private static void text(KeyInventory inv, Writer out) throws IOException {
        for (Entry e : inv.entries()) {
            out.write("key (" + TerminalText.escape(e.value()) + ")  " + e.spaceName()
                    + (e.known() ? "" : ", not known statically") + "\n");
            out.write("  pg_locks:  " + pgLocksText(e.pgLocks()) + "\n");
            String label = e.origins().size() == 1 ? "  origin:    " : "  origins:   ";
            for (String o : e.origins()) {
                out.write(label + TerminalText.escape(o) + "\n");
                label = "             ";
            }
            out.write("  functions: " + String.join(", ", e.functions()) + " (" + String.join(", ", e.levels()) + "; "
                    + String.join(", ", e.modes()) + ")\n");
            out.write("  sites:\n");
            for (LockSite s : e.sites()) {
                out.write("    " + TerminalText.escape(s.region() + "  " + s.display() + method(s, "  in ")) + "\n");
            }
            out.write("\n");
        }
        out.write(inv.entries().size() + " key" + (inv.entries().size() == 1 ? "" : "s") + " (" + inv.knownCount()
                + " known statically) at " + inv.siteCount() + " site" + (inv.siteCount() == 1 ? "" : "s") + "\n");
    }

    private static String pgLocksText(PgLocksRow r) {
        return "locktype=advisory classid=" + num(r.classid()) + " objid=" + num(r.objid()) + " objsubid="
                + r.objsubid();
    }

    private static String num(Long v) {
        return v == null ? "?" : Long.toString(v);
    }

    private static String method(LockSite s, String prefix) {
        JavaContext j = s.java();
        return j == null || j.methodName() == null ? "" : prefix + j.typeName() + "." + j.methodName();
    }

    /**
     * @param inv an inventory
     * @return its JSON document (schema version 1)
     */
    static ObjectNode json(KeyInventory inv) {
        ObjectNode root = ReportSupport.MAPPER.createObjectNode();
        root.put("schemaVersion", 1);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", ToolInfo.NAME);
        tool.put("version", ToolInfo.version());
        ArrayNode keys = root.putArray("keys");
        for (Entry e : inv.entries()) {
            ObjectNode k = keys.addObject();
            k.put("keySpace", e.spaceName());
            k.put("known", e.known());
            ArrayNode values = k.putArray("value");
            for (KeyPart p : e.key().parts()) {
                if (p.isKnown()) {
                    values.add(p.value());
                } else {
                    values.add(p.expression());
                }
            }
            ObjectNode pg = k.putObject("pgLocks");
            pg.put("locktype", "advisory");
            putNullable(pg, "classid", e.pgLocks().classid());
            putNullable(pg, "objid", e.pgLocks().objid());
            pg.put("objsubid", e.pgLocks().objsubid());
            ArrayNode origins = k.putArray("origins");
            e.origins().forEach(origins::add);
            ArrayNode functions = k.putArray("functions");
            e.functions().forEach(functions::add);
            ArrayNode levels = k.putArray("levels");
            e.levels().forEach(levels::add);
            ArrayNode modes = k.putArray("modes");
            e.modes().forEach(modes::add);
            ArrayNode sites = k.putArray("sites");
            for (LockSite s : e.sites()) {
                ObjectNode n = sites.addObject();
                n.put("path", s.region().path());
                n.put("line", s.region().startLine());
                n.put("column", s.region().startColumn());
                n.put("function", s.function().sqlName());
                n.put("call", s.display());
                JavaContext j = s.java();
                if (j != null && j.methodName() != null) {
                    n.put("method", j.typeName() + "." + j.methodName());
                } else {
                    n.putNull("method");
                }
            }
        }
        return root;
    }

    private static void putNullable(ObjectNode n, String field, Long v) {
        if (v == null) {
            n.putNull(field);
        } else {
            n.put(field, v);
        }
    }

    private static void csv(KeyInventory inv, Writer out) throws IOException {
        csvRow(CSV_COLUMNS, out);
        for (Entry e : inv.entries()) {
            for (LockSite s : e.sites()) {
                csvRow(
                        List.of(
                                e.spaceName(),
                                e.value(),
                                Boolean.toString(e.known()),
                                num(e.pgLocks().classid()),
                                num(e.pgLocks().objid()),
                                Integer.toString(e.pgLocks().objsubid()),
                                siteOrigin(s),
                                s.function().sqlName(),
                                s.function().level().name().toLowerCase(Locale.ROOT),
                                s.function().mode().name().toLowerCase(Locale.ROOT),
                                s.region().path(),
                                Integer.toString(s.region().startLine()),
                                Integer.toString(s.region().startColumn()),
                                s.display(),
                                method(s, "")),
                        out);
            }
        }
    }

    private static String siteOrigin(LockSite s) {
        List<String> parts = new ArrayList<>();
        for (KeyPart p : s.key().parts()) {
            parts.add(KeyFacts.describeOrigin(p));
        }
        return String.join(", ", parts);
    }

    private static void csvRow(List<String> fields, Writer out) throws IOException {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(csvField(fields.get(i)));
        }
        out.write("\r\n");
    }

    /**
     * RFC 4180: a field holding a comma, a double quote, CR or LF is enclosed in double quotes, and
     * each double quote inside it doubled. Leading and trailing spaces are kept as they are.
     * <p>
     * CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with {@code =},
     * {@code +}, {@code -}, {@code @}, a tab or a carriage return as a formula, and the inventory
     * quotes code and file names a repository controls. Such a field gets a leading single quote
     * (which spreadsheets show as text and do not run) and is always enclosed in double quotes. A
     * plain number such as {@code -42} (a negative key) is left as it is: it cannot be a formula.
     *
     * @param field a value, null for empty
     * @return the field as it goes into the file
     */
    static String csvField(String field) {
        if (field == null) {
            return "";
        }
        if (startsLikeFormula(field) && !PLAIN_NUMBER.matcher(field).matches()) {
            return "\"'" + field.replace("\"", "\"\"") + '"';
        }
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\r') < 0 && field.indexOf('\n') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    /** A decimal integer or fraction, optionally negative: a spreadsheet reads it as a number. */
    private static final Pattern PLAIN_NUMBER = Pattern.compile("[-+]?[0-9]+(\\.[0-9]+)?");

    private static boolean startsLikeFormula(String field) {
        if (field.isEmpty()) {
            return false;
        }
        char c = field.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
    }

    private static void markdown(KeyInventory inv, Writer out) throws IOException {
        out.write("| Key space | Key | classid | objid | objsubid | Origin | Functions | Sites |\n");
        out.write("|---|---|---|---|---|---|---|---|\n");
        for (Entry e : inv.entries()) {
            List<String> sites = new ArrayList<>();
            for (LockSite s : e.sites()) {
                sites.add(MarkdownText.code(s.region().toString()) + " " + MarkdownText.code(s.display())
                        + MarkdownText.text(method(s, " in ")));
            }
            out.write("| " + md(e.spaceName()) + " | "
                    + (e.known() ? md(e.value()) : MarkdownText.code(e.value()) + " (not known)")
                    + " | " + num(e.pgLocks().classid()) + " | "
                    + num(e.pgLocks().objid()) + " | " + e.pgLocks().objsubid()
                    + " | "
                    + String.join(
                            "<br>",
                            e.origins().stream().map(KeyInventoryWriter::md).toList())
                    + " | " + md(String.join(", ", e.functions()))
                    + " | " + String.join("<br>", sites) + " |\n");
        }
    }

    private static String md(String s) {
        return MarkdownText.text(s);
    }
}
