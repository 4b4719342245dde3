package io.github.pgadvisorylint.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.keys.KeyFacts;
import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.report.MarkdownText;
import io.github.pgadvisorylint.core.report.TerminalText;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Writes what {@code locks} found: each advisory key held or awaited now, decoded into its key space and value
 * ({@link KeyFacts#decode}), the sessions holding and awaiting it, which pid blocks which, the wait chains, and the
 * code sites of the key inventory that take that key ({@link KeyInventory#taking}) or may take it
 * ({@link KeyInventory#possiblyTaking}); a key no site takes is "unknown to the code". Text, JSON or Markdown.
 * Text from the server (target, role, version, application names, states) and from the code (paths, calls,
 * method names) goes through {@link TerminalText} in text and {@link MarkdownText} in Markdown; JSON is
 * escaped by Jackson. The target never holds a password ({@link LiveLocks.Snapshot#target}).
 */
final class LocksReport {

    /** The output formats. */
    enum Format {
        TEXT,
        JSON,
        MARKDOWN;

        static Format parse(String word) {
            return Format.valueOf(word.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** Words for a key no code site takes. */
    static final String UNKNOWN_TO_THE_CODE = "unknown to the code";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'");

    /** One key with its holders, waiters and code. */
    private record KeyLocks(
            KeyFacts.DecodedKey key,
            KeyFacts.PgLocksRow row,
            List<LiveLocks.Lock> holders,
            List<LiveLocks.Lock> waiters,
            List<LockSite> sites,
            List<LockSite> possibleSites) {}

    private final LiveLocks.Snapshot snapshot;
    private final KeyInventory inventory;
    private final List<KeyLocks> keys = new ArrayList<>();
    private final List<List<Integer>> chains;

    /**
     * @param snapshot  the locks now
     * @param inventory the key inventory of the scanned code, or null when no PATH was given
     */
    LocksReport(LiveLocks.Snapshot snapshot, KeyInventory inventory) {
        this.snapshot = snapshot;
        this.inventory = inventory;
        Map<KeyFacts.PgLocksRow, List<LiveLocks.Lock>> byKey = new LinkedHashMap<>();
        for (LiveLocks.Lock l : snapshot.locks()) {
            byKey.computeIfAbsent(new KeyFacts.PgLocksRow(l.classid(), l.objid(), l.objsubid()), k -> new ArrayList<>())
                    .add(l);
        }
        for (Map.Entry<KeyFacts.PgLocksRow, List<LiveLocks.Lock>> e : byKey.entrySet()) {
            KeyFacts.PgLocksRow row = e.getKey();
            List<LockSite> sites = new ArrayList<>();
            List<LockSite> possible = new ArrayList<>();
            if (inventory != null) {
                inventory.taking(row).forEach(entry -> sites.addAll(entry.sites()));
                // a held or awaited lock was asked for by an acquisition: a run-time key's unlocks are no candidates
                inventory
                        .possiblyTaking(row)
                        .forEach(entry -> entry.sites().stream()
                                .filter(s -> s.function().operation().isAcquisition())
                                .forEach(possible::add));
            }
            keys.add(new KeyLocks(
                    KeyFacts.decode(row.classid(), row.objid(), row.objsubid()),
                    row,
                    e.getValue().stream().filter(LiveLocks.Lock::granted).toList(),
                    e.getValue().stream().filter(l -> !l.granted()).toList(),
                    sites,
                    possible));
        }
        keys.sort((a, b) -> {
            int c = Integer.compare(a.row().objsubid(), b.row().objsubid());
            for (int i = 0; c == 0 && i < a.key().values().size(); i++) {
                c = Long.compare(a.key().values().get(i), b.key().values().get(i));
            }
            return c;
        });
        this.chains = chains(snapshot);
    }

    /**
     * The wait chains: from each waiting session nobody waits for, along its first blocker, to a session that
     * waits for nothing (or back to a pid already in the chain: a deadlock PostgreSQL has not broken yet).
     */
    private static List<List<Integer>> chains(LiveLocks.Snapshot snapshot) {
        Set<Integer> waitedFor = new LinkedHashSet<>();
        snapshot.sessions().values().forEach(s -> waitedFor.addAll(s.blockedBy()));
        List<List<Integer>> chains = new ArrayList<>();
        snapshot.sessions().values().stream()
                .filter(s -> !s.blockedBy().isEmpty() && !waitedFor.contains(s.pid()))
                .map(LiveLocks.Session::pid)
                .sorted()
                .forEach(start -> {
                    List<Integer> chain = new ArrayList<>();
                    Integer pid = start;
                    while (pid != null && !chain.contains(pid)) {
                        chain.add(pid);
                        LiveLocks.Session s = snapshot.sessions().get(pid);
                        pid = s == null || s.blockedBy().isEmpty()
                                ? null
                                : s.blockedBy().get(0);
                    }
                    if (pid != null) {
                        chain.add(pid);
                    }
                    chains.add(chain);
                });
        return chains;
    }

    /**
     * @param format the format
     * @param out    where to write
     * @throws IOException when writing fails
     */
    void write(Format format, Writer out) throws IOException {
        switch (format) {
            case TEXT -> text(out);
            case JSON -> json(out);
            case MARKDOWN -> markdown(out);
        }
    }

    private String header(UnaryOperator<String> esc) {
        long held = snapshot.locks().stream().filter(LiveLocks.Lock::granted).count();
        return "Advisory locks on " + esc.apply(snapshot.target()) + " (PostgreSQL "
                + esc.apply(snapshot.serverVersion()) + ", as role " + esc.apply(snapshot.role()) + ") at "
                + TIME.format(snapshot.takenAt().withOffsetSameInstant(ZoneOffset.UTC))
                + ": "
                + held + " held, " + (snapshot.locks().size() - held) + " awaited, by "
                + snapshot.sessions().size()
                + (snapshot.sessions().size() == 1 ? " session" : " sessions");
    }

    private void text(Writer out) throws IOException {
        UnaryOperator<String> esc = TerminalText::escape;
        out.write(header(esc) + "\n");
        for (KeyLocks k : keys) {
            out.write("\nkey " + k.key().value() + "  " + k.key().spaceName() + "  (pg_locks classid="
                    + k.row().classid() + " objid=" + k.row().objid() + " objsubid="
                    + k.row().objsubid() + ")\n");
            for (LiveLocks.Lock l : k.holders()) {
                out.write("  held by     " + session(l, esc) + "\n");
            }
            for (LiveLocks.Lock l : k.waiters()) {
                out.write("  awaited by  " + session(l, esc) + "\n");
            }
            if (inventory == null) {
                out.write("  code:       not matched (no PATH given)\n");
            } else if (!k.sites().isEmpty()) {
                out.write("  code:\n");
                for (LockSite s : k.sites()) {
                    out.write("    " + esc.apply(site(s)) + "\n");
                }
            } else {
                out.write("  code:       " + UNKNOWN_TO_THE_CODE
                        + (k.possibleSites().isEmpty() ? "" : "; may be a key computed at run time by:") + "\n");
                for (LockSite s : k.possibleSites()) {
                    out.write("    " + esc.apply(site(s)) + "\n");
                }
            }
        }
        if (!chains.isEmpty()) {
            out.write("\nwait chains (each pid waits for the next):\n");
            for (List<Integer> chain : chains) {
                out.write("  " + chainText(chain, esc) + "\n");
            }
        }
        if (snapshot.hiddenSessions() > 0) {
            out.write("\n" + hiddenNote(esc) + "\n");
        }
    }

    private String chainText(List<Integer> chain, UnaryOperator<String> esc) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < chain.size(); i++) {
            b.append(i == 0 ? "" : " -> ").append(chain.get(i));
        }
        LiveLocks.Session last = snapshot.sessions().get(chain.get(chain.size() - 1));
        if (chain.size() > 1 && chain.get(0).equals(chain.get(chain.size() - 1))) {
            b.append("  (a cycle: a deadlock not yet detected)");
        } else if (last != null && last.state() != null) {
            b.append("  (")
                    .append(chain.get(chain.size() - 1))
                    .append(" is ")
                    .append(esc.apply(last.state()))
                    .append(")");
        }
        return b.toString();
    }

    /**
     * @param esc the escaper of the output the note goes to
     * @return the note printed when sessions hide their activity from the connected role
     */
    String hiddenNote(UnaryOperator<String> esc) {
        long hidden = snapshot.hiddenSessions();
        return "role " + esc.apply(snapshot.role()) + " cannot see the activity of " + hidden + " of "
                + snapshot.sessions().size()
                + " sessions (pg_stat_activity shows " + LiveLocks.INSUFFICIENT_PRIVILEGE + "): their state and times"
                + " are missing; connect as a superuser or a member of pg_read_all_stats";
    }

    private String session(LiveLocks.Lock l, UnaryOperator<String> esc) {
        LiveLocks.Session s = snapshot.sessions().get(l.pid());
        StringBuilder b = new StringBuilder();
        b.append(l.pid() == 0 ? "a prepared transaction" : "pid " + l.pid());
        if (s != null && s.application() != null) {
            b.append(" (").append(esc.apply(s.application())).append(")");
        }
        if (s != null && s.client() != null) {
            b.append(" from ").append(esc.apply(s.client()));
        }
        b.append(l.shared() ? " shared" : " exclusive");
        if (s != null && !s.visible()) {
            b.append(", activity hidden from this role");
        } else if (s != null && s.state() != null) {
            b.append(", ").append(esc.apply(s.state()));
            if (s.stateSince() != null) {
                b.append(" since ").append(when(s.stateSince()));
            }
        }
        if (!l.granted() && l.waitingSince() != null) {
            b.append(", waiting since ").append(when(l.waitingSince()));
        }
        if (!l.granted() && s != null && !s.blockedBy().isEmpty()) {
            b.append(", blocked by ").append(pids(s.blockedBy()));
        }
        if (l.granted()) {
            List<Integer> blocks = blocks(l.pid());
            if (!blocks.isEmpty()) {
                b.append(", blocks ").append(pids(blocks));
            }
        }
        if (s != null && s.connectedAt() != null) {
            b.append(", connected since ").append(when(s.connectedAt()));
        }
        if (s != null && s.query() != null) {
            b.append(", last query: ").append(esc.apply(s.query()));
        }
        return b.toString();
    }

    /** @return the pids waiting for {@code pid}, sorted */
    private List<Integer> blocks(int pid) {
        return snapshot.sessions().values().stream()
                .filter(s -> s.blockedBy().contains(pid))
                .map(LiveLocks.Session::pid)
                .sorted()
                .toList();
    }

    private static String pids(List<Integer> pids) {
        return String.join(", ", pids.stream().map(String::valueOf).toList());
    }

    private String when(OffsetDateTime t) {
        Duration d = Duration.between(t, snapshot.takenAt());
        return TIME.format(t.withOffsetSameInstant(ZoneOffset.UTC)) + " (" + ago(d) + ")";
    }

    private static String ago(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }

    private static String site(LockSite s) {
        return s.region() + "  " + s.display() + method(s, "  in ");
    }

    private static String method(LockSite s, String prefix) {
        JavaContext j = s.java();
        return j == null || j.methodName() == null ? "" : prefix + j.typeName() + "." + j.methodName();
    }

    private void json(Writer out) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("target", snapshot.target());
        root.put("server_version", snapshot.serverVersion());
        root.put("role", snapshot.role());
        root.put(
                "taken_at",
                snapshot.takenAt().withOffsetSameInstant(ZoneOffset.UTC).toString());
        root.put("code_matched", inventory != null);
        root.put("hidden_sessions", snapshot.hiddenSessions());
        ArrayNode keyArray = root.putArray("keys");
        for (KeyLocks k : keys) {
            ObjectNode n = keyArray.addObject();
            n.put("key_space", k.key().spaceName());
            n.put("key", k.key().value());
            ObjectNode pg = n.putObject("pg_locks");
            pg.put("classid", k.row().classid());
            pg.put("objid", k.row().objid());
            pg.put("objsubid", k.row().objsubid());
            ArrayNode holders = n.putArray("held_by");
            k.holders().forEach(l -> sessionJson(holders.addObject(), l));
            ArrayNode waiters = n.putArray("awaited_by");
            k.waiters().forEach(l -> sessionJson(waiters.addObject(), l));
            if (inventory == null) {
                n.putNull("known_to_code");
            } else {
                n.put("known_to_code", !k.sites().isEmpty());
            }
            ArrayNode sites = n.putArray("sites");
            k.sites().forEach(s -> siteJson(sites.addObject(), s));
            ArrayNode possible = n.putArray("possible_sites");
            k.possibleSites().forEach(s -> siteJson(possible.addObject(), s));
        }
        ArrayNode chainArray = root.putArray("wait_chains");
        for (List<Integer> chain : chains) {
            ArrayNode c = chainArray.addArray();
            chain.forEach(c::add);
        }
        out.write(mapper.writeValueAsString(root));
        out.write("\n");
    }

    private void sessionJson(ObjectNode n, LiveLocks.Lock l) {
        LiveLocks.Session s = snapshot.sessions().get(l.pid());
        n.put("pid", l.pid());
        n.put("mode", l.shared() ? "shared" : "exclusive");
        n.put("application", s == null ? null : s.application());
        n.put("user", s == null ? null : s.user());
        n.put("visible", s == null || s.visible());
        n.put("client_addr", s == null ? null : s.client());
        n.put(
                "backend_start",
                s == null || s.connectedAt() == null
                        ? null
                        : s.connectedAt().withOffsetSameInstant(ZoneOffset.UTC).toString());
        n.put("query", s == null ? null : s.query());
        n.put("state", s == null ? null : s.state());
        n.put(
                "state_since",
                s == null || s.stateSince() == null
                        ? null
                        : s.stateSince().withOffsetSameInstant(ZoneOffset.UTC).toString());
        if (!l.granted()) {
            n.put(
                    "waiting_since",
                    l.waitingSince() == null
                            ? null
                            : l.waitingSince()
                                    .withOffsetSameInstant(ZoneOffset.UTC)
                                    .toString());
            ArrayNode by = n.putArray("blocked_by");
            if (s != null) {
                s.blockedBy().forEach(by::add);
            }
        } else {
            ArrayNode blocks = n.putArray("blocks");
            blocks(l.pid()).forEach(blocks::add);
        }
    }

    private static void siteJson(ObjectNode n, LockSite s) {
        n.put("path", s.path());
        n.put("line", s.region().startLine());
        n.put("column", s.region().startColumn());
        n.put("call", s.display());
        JavaContext j = s.java();
        if (j != null && j.methodName() != null) {
            n.put("method", j.typeName() + "." + j.methodName());
        } else {
            n.putNull("method");
        }
    }

    private void markdown(Writer out) throws IOException {
        UnaryOperator<String> esc = MarkdownText::text;
        out.write("### " + header(esc) + "\n\n");
        out.write("| Key | Key space | pg_locks (classid, objid, objsubid) | Held by | Awaited by | Code |\n");
        out.write("|---|---|---|---|---|---|\n");
        for (KeyLocks k : keys) {
            List<String> code = new ArrayList<>();
            if (inventory == null) {
                code.add("not matched (no PATH given)");
            } else if (!k.sites().isEmpty()) {
                k.sites().forEach(s -> code.add(markdownSite(s)));
            } else {
                code.add(UNKNOWN_TO_THE_CODE + (k.possibleSites().isEmpty() ? "" : "; may be:"));
                k.possibleSites().forEach(s -> code.add(markdownSite(s)));
            }
            out.write("| " + k.key().value() + " | " + k.key().spaceName() + " | "
                    + k.row().classid() + ", " + k.row().objid()
                    + ", " + k.row().objsubid() + " | "
                    + String.join(
                            "<br>",
                            k.holders().stream().map(l -> session(l, esc)).toList())
                    + " | "
                    + String.join(
                            "<br>",
                            k.waiters().stream().map(l -> session(l, esc)).toList())
                    + " | " + String.join("<br>", code) + " |\n");
        }
        if (!chains.isEmpty()) {
            out.write("\nWait chains (each pid waits for the next):\n\n");
            for (List<Integer> chain : chains) {
                out.write("- " + chainText(chain, esc) + "\n");
            }
        }
        if (snapshot.hiddenSessions() > 0) {
            out.write("\n> " + hiddenNote(esc) + "\n");
        }
    }

    private static String markdownSite(LockSite s) {
        return MarkdownText.code(s.region().toString()) + " " + MarkdownText.code(s.display())
                + MarkdownText.text(method(s, " in "));
    }
}
