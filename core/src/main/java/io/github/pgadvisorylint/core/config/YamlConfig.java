package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Reads YAML (Spring/Quarkus/Micronaut configuration, compose files, Kubernetes manifests, Helm
 * values) with snakeyaml-engine, safely: documents are only composed into nodes, never constructed
 * into objects, so no tag can run code; aliases to collections are limited
 * ({@code setMaxAliasesForCollections}), recursive keys refused, nesting limited by a parser
 * wrapper, the input limited in size ({@code setCodePointLimit}), and the walk over the nodes visits
 * each node at most once per context and stops after a fixed budget (an alias bomb stays linear).
 * Multi-document streams ({@code ---}) are read document by document; after a parse error the
 * documents already read keep their evidence and the rest of the file is read line by line
 * ({@link LexicalConfig}).
 */
final class YamlConfig {

    static final int MAX_ALIASES_FOR_COLLECTIONS = 50;
    static final int MAX_NESTING = 100;
    static final int CODE_POINT_LIMIT = 16 * 1024 * 1024;
    static final int VISIT_BUDGET = 2_000_000;

    private final String text;
    private final EvidenceSink sink;
    private final IdentityHashMap<Node, Set<Ctx>> seen = new IdentityHashMap<>();
    private int visits;
    private boolean budgetExceeded;
    private String docKind;

    /**
     * Where a node sits.
     *
     * @param key       the mapping key whose value it is; null for a sequence item or a document root
     * @param parentKey the key of the enclosing collection
     * @param topLevel  whether {@code key} is a key of the document's root mapping
     * @param root      whether this is the document root
     * @param service   the compose service ({@code services.NAME}) it is inside, or null
     * @param pgbouncer whether a key above it names PgBouncer
     * @param pooler    whether a key above it is {@code connectionPooler} (Zalando postgres-operator)
     */
    private record Ctx(
            String key,
            String parentKey,
            boolean topLevel,
            boolean root,
            String service,
            boolean pgbouncer,
            boolean pooler) {

        Ctx child(String k) {
            String svc = "services".equals(key) && topLevel ? k : service;
            String lower = k.toLowerCase(Locale.ROOT);
            return new Ctx(
                    k,
                    key,
                    root,
                    false,
                    svc,
                    pgbouncer || lower.contains("pgbouncer"),
                    pooler || lower.equals("connectionpooler") || lower.equals("connection_pooler"));
        }

        Ctx item() {
            return new Ctx(null, key, false, false, service, pgbouncer, pooler);
        }
    }

    private YamlConfig(String text, EvidenceSink sink) {
        this.text = text;
        this.sink = sink;
    }

    static void scan(String text, EvidenceSink sink) {
        new YamlConfig(text, sink).run();
    }

    /**
     * A composer of the documents of a YAML text under this class's limits (aliases, nesting, code points);
     * its {@code next()} throws {@link YamlEngineException} or {@link RuntimeException} on bad input.
     *
     * @param label the file's path, for the parser's messages
     * @param text  the YAML text
     * @return the composer, one document per {@code next()}
     */
    static Composer composer(String label, String text) {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(label)
                .setMaxAliasesForCollections(MAX_ALIASES_FOR_COLLECTIONS)
                .setAllowRecursiveKeys(false)
                .setAllowDuplicateKeys(true)
                .setCodePointLimit(CODE_POINT_LIMIT)
                .setParseComments(false)
                .build();
        Parser parser = new DepthLimitedParser(new ParserImpl(settings, new StreamReader(settings, text)));
        return new Composer(settings, parser);
    }

    private void run() {
        int resume = 0;
        try {
            Composer composer = composer(sink.file().path(), text);
            while (composer.hasNext()) {
                Node document = composer.next();
                walkDocument(document);
                resume =
                        Math.max(resume, document.getEndMark().map(this::offset).orElse(resume));
                if (budgetExceeded) {
                    sink.parseProblem(
                            document.getStartMark().map(this::offset).orElse(0),
                            "YAML document too large to read through its aliases; rest of the document skipped");
                    budgetExceeded = false;
                }
            }
        } catch (YamlEngineException | TooDeep e) {
            Optional<Mark> mark = e instanceof MarkedYamlEngineException m
                    ? m.getProblemMark()
                    : e instanceof TooDeep t ? t.mark : Optional.empty();
            int at = mark.map(this::offset).orElse(resume);
            sink.parseProblem(
                    at,
                    "YAML could not be parsed (" + firstLine(e) + "); the rest of the file was read" + " line by line");
            LexicalConfig.scan(
                    text,
                    Math.min(resume, text.length()),
                    text.length(),
                    LexicalConfig.Comments.HASH,
                    true,
                    "in a YAML file read line by line",
                    sink);
        }
    }

    private static String firstLine(Exception e) {
        String m = e instanceof MarkedYamlEngineException me && me.getProblem() != null
                ? me.getProblem()
                : String.valueOf(e.getMessage());
        return m.lines().findFirst().orElse("syntax error").strip();
    }

    /** @return the file offset of a mark (its line and code-point column) */
    private int offset(Mark mark) {
        return offset(sink.file(), mark);
    }

    /**
     * @param file the YAML file
     * @param mark a position the parser reports (0-based line, code-point column)
     * @return its char offset in the file
     */
    static int offset(SourceFile file, Mark mark) {
        String text = file.text();
        int i = file.offsetOf(mark.getLine() + 1, 1);
        for (int k = 0; k < mark.getColumn() && i < text.length(); k++) {
            i += Character.charCount(text.codePointAt(i));
        }
        return Math.min(i, text.length());
    }

    private void walkDocument(Node root) {
        docKind = null;
        if (root instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k
                        && k.getValue().equals("kind")
                        && t.getValueNode() instanceof ScalarNode v) {
                    docKind = v.getValue().strip();
                }
            }
        }
        walk(root, new Ctx(null, null, false, true, null, false, false), 0);
    }

    private void walk(Node node, Ctx c, int depth) {
        if (budgetExceeded || depth > 2 * MAX_NESTING) {
            return;
        }
        if (++visits > VISIT_BUDGET) {
            budgetExceeded = true;
            return;
        }
        if (!(node instanceof ScalarNode)
                && !seen.computeIfAbsent(node, n -> new HashSet<>(2)).add(c)) {
            return;
        }
        if (node instanceof ScalarNode s) {
            if (EvidenceRules.containsIgnoreCase(s.getValue(), "postgres")) {
                EvidenceRules.urls(mapped(s), sink);
            }
        } else if (node instanceof MappingNode m) {
            mapping(m, c, depth, 0);
        } else if (node instanceof SequenceNode q) {
            boolean env = isEnvKey(c.key());
            for (Node item : q.getValue()) {
                if (env) {
                    envItem(item, c);
                }
                walk(item, c.item(), depth + 1);
            }
        }
    }

    private void mapping(MappingNode m, Ctx c, int depth, int merges) {
        for (NodeTuple t : m.getValue()) {
            Node kn = t.getKeyNode();
            Node vn = t.getValueNode();
            if (!(kn instanceof ScalarNode ks)) {
                walk(vn, c.item(), depth + 1);
                continue;
            }
            String k = ks.getValue();
            if (k.equals("<<") && merges < 8) {
                if (vn instanceof MappingNode merged) {
                    mapping(merged, c, depth + 1, merges + 1);
                } else if (vn instanceof SequenceNode list) {
                    for (Node item : list.getValue()) {
                        if (item instanceof MappingNode merged) {
                            mapping(merged, c, depth + 1, merges + 1);
                        }
                    }
                }
                continue;
            }
            if (vn instanceof ScalarNode v) {
                entry(c, k, v);
            }
            walk(vn, c.child(k), depth + 1);
        }
    }

    /** Checks {@code k: v} inside the mapping at {@code c}. */
    private void entry(Ctx c, String k, ScalarNode v) {
        String section = c.key();
        if (isEnvKey(section)) {
            if (EvidenceRules.isPoolModeVariable(k)) {
                EvidenceRules.envVariable(k, mapped(v), envWhere(c), sink);
            }
            return;
        }
        if (c.topLevel()
                && docKind != null
                && (("data".equals(section) && docKind.equals("ConfigMap"))
                        || ("stringData".equals(section) && docKind.equals("Secret")))) {
            if (EvidenceRules.isPoolModeVariable(k)) {
                EvidenceRules.envVariable(k, mapped(v), "in " + docKind + " " + section, sink);
                return;
            }
        }
        String nk = EvidenceRules.normalizedKey(k);
        if (nk.equals("poolmode") && (c.pgbouncer() || "Pooler".equals(docKind))) {
            EvidenceRules.modeValue(mapped(v), k + ": %s in PgBouncer settings", sink);
        } else if (nk.equals("pgbouncerpoolmode") && !EvidenceRules.isPoolModeVariable(k)) {
            EvidenceRules.modeValue(mapped(v), k + ": %s", sink);
        } else if ((nk.equals("mode")
                        && c.pooler()
                        && section != null
                        && EvidenceRules.normalizedKey(section).equals("connectionpooler"))
                || nk.equals("connectionpoolermode")) {
            EvidenceRules.modeValue(mapped(v), "connection pooler mode %s (postgres-operator)", sink);
        }
        EvidenceRules.prepareThresholdProperty(k, mapped(v), sink);
        if (k.toLowerCase(Locale.ROOT).endsWith(".ini") && IniConfig.looksLikePgBouncer(v.getValue())) {
            IniConfig.scan(new LineSource(mapped(v)), k, sink);
        }
    }

    /** An item of an environment list: {@code - NAME=value} (compose) or {@code - name: NAME / value: v} (Kubernetes). */
    private void envItem(Node item, Ctx c) {
        if (item instanceof ScalarNode s) {
            MappedText t = mapped(s);
            int eq = t.text().indexOf('=');
            if (eq > 0) {
                EvidenceRules.envVariable(t.text().substring(0, eq), t.sub(eq + 1, t.length()), envWhere(c), sink);
            }
        } else if (item instanceof MappingNode m) {
            String name = null;
            ScalarNode value = null;
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && t.getValueNode() instanceof ScalarNode v) {
                    if (k.getValue().equals("name")) {
                        name = v.getValue();
                    } else if (k.getValue().equals("value")) {
                        value = v;
                    }
                }
            }
            if (name != null && value != null) {
                EvidenceRules.envVariable(name, mapped(value), envWhere(c), sink);
            }
        }
    }

    private static String envWhere(Ctx c) {
        if (c.service() != null) {
            return "in the environment of service " + c.service();
        }
        return "env".equals(c.key()) ? "in a container's env" : "as an environment variable";
    }

    /** @return whether a collection under this key holds environment variables ({@code environment}, {@code env}, {@code extraEnv}, ...) */
    static boolean isEnvKey(String key) {
        if (key == null) {
            return false;
        }
        String k = EvidenceRules.normalizedKey(key);
        return k.endsWith("env")
                || k.endsWith("envs")
                || k.endsWith("envvars")
                || k.endsWith("environment")
                || k.endsWith("environmentvariables");
    }

    private MappedText mapped(ScalarNode s) {
        return mapped(sink.file(), s);
    }

    /** Mapping entries {@link #forEachScalar} visits per file at most (aliases can repeat a large mapping). */
    private static final int SCALAR_VISIT_BUDGET = 100_000;

    /**
     * Visits every scalar value of a YAML file's mappings with its dotted key ({@code spring.datasource.url} for
     * nested or dotted keys), in document order. A file that does not parse gives what came before the problem
     * (the pooling scan reports it); never throws.
     *
     * @param file    the YAML file
     * @param onEntry receives each key and value, with the file offset of each char of the value
     */
    static void forEachScalar(SourceFile file, BiConsumer<String, MappedText> onEntry) {
        try {
            Composer composer = composer(file.path(), file.text());
            int[] visits = {0};
            while (composer.hasNext()) {
                walkScalars(file, composer.next(), "", onEntry, visits);
            }
        } catch (RuntimeException | StackOverflowError e) {
            // not YAML this reader can follow: the pooling scan reports the parse problem
        }
    }

    private static void walkScalars(
            SourceFile file, Node node, String prefix, BiConsumer<String, MappedText> onEntry, int[] visits) {
        if (!(node instanceof MappingNode m)) {
            return;
        }
        for (NodeTuple t : m.getValue()) {
            if (++visits[0] > SCALAR_VISIT_BUDGET || !(t.getKeyNode() instanceof ScalarNode k)) {
                continue;
            }
            String key = prefix.isEmpty() ? k.getValue() : prefix + "." + k.getValue();
            if (t.getValueNode() instanceof ScalarNode v) {
                onEntry.accept(key, mapped(file, v));
            } else if (key.length() < 1_000) {
                walkScalars(file, t.getValueNode(), key, onEntry, visits);
            }
        }
    }

    /** @return a scalar's value with the file offset of each char */
    static MappedText mapped(SourceFile file, ScalarNode s) {
        int start = s.getStartMark().map(m -> offset(file, m)).orElse(0);
        int end = s.getEndMark().map(m -> offset(file, m)).orElse(start);
        return MappedText.aligned(s.getValue(), file.text(), start, end);
    }

    /** Thrown by {@link DepthLimitedParser} when collections nest deeper than {@link #MAX_NESTING}. */
    private static final class TooDeep extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Optional<Mark> mark;

        TooDeep(Optional<Mark> mark) {
            super("collections nested deeper than " + MAX_NESTING + " levels", null, false, false);
            this.mark = mark;
        }
    }

    /** Refuses collections nested deeper than {@link #MAX_NESTING}, before the recursive composer can overflow its stack. */
    private static final class DepthLimitedParser implements Parser {
        private final Parser delegate;
        private int depth;

        DepthLimitedParser(Parser delegate) {
            this.delegate = delegate;
        }

        @Override
        public boolean checkEvent(Event.ID id) {
            return delegate.checkEvent(id);
        }

        @Override
        public Event peekEvent() {
            return delegate.peekEvent();
        }

        @Override
        public boolean hasNext() {
            return delegate.hasNext();
        }

        @Override
        public Event next() {
            Event e = delegate.next();
            switch (e.getEventId()) {
                case MappingStart, SequenceStart -> {
                    if (++depth > MAX_NESTING) {
                        throw new TooDeep(e.getStartMark());
                    }
                }
                case MappingEnd, SequenceEnd -> depth--;
                default -> {}
            }
            return e;
        }
    }
}
