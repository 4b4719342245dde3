package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.io.BoundedReads;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.rule.Names;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Finds and reads {@code .pg-advisory-lint.yml}, the one configuration file the CLI and the Maven
 * plugin share. The file is one YAML 1.2 mapping; every key is optional:
 * <pre>
 * rules:                      # rule id: off | on | error | warning | note
 *   duplicate-lock-key: off    # on or a severity also runs a rule that is off by default
 *   blocking-lock-without-timeout: on
 *   lock-in-limit-query: warning
 * includes: [src/main/**]     # globs (java.nio syntax), relative to this file's directory
 * excludes: ["**&#47;generated/**", legacy/]
 * pooling: transaction        # auto | transaction | statement | session | none
 * includeTests: false         # true | false
 * lockHelpers: [acquire, com.acme.Locks.withLock]
 * pooledApiTypes: [com.acme.db.PooledDataSource]
 * failOnIncomplete: true      # true | false: fail when a file, method or rule was left out
 * timeLimit: 300              # seconds a file phase, the lock paths or a rule may run before the scan stops
 * </pre>
 * The file is composed into nodes only (never constructed into objects), so a YAML tag cannot run
 * code; anchors and aliases are limited. Every problem is a {@link ConfigException} naming the file
 * (all the problems of the file at once, one per line, when there are several),
 * line and column and the allowed keys or values.
 */
public final class LintConfigLoader {

    /** The file name searched for. */
    public static final String FILE_NAME = ".pg-advisory-lint.yml";

    /** Largest configuration file read, in bytes. */
    static final long MAX_BYTES = 1024 * 1024;
    /**
     * Collections nested deeper than this are refused before they are composed: snakeyaml-engine's
     * composer recurses once per level and has no limit of its own, so 5,000 levels overflowed the stack.
     */
    static final int MAX_NESTING = 100;

    /** Every top-level key, in documentation order. */
    public static final List<String> KEYS = List.of(
            "rules",
            "includes",
            "excludes",
            "pooling",
            "includeTests",
            "lockHelpers",
            "pooledApiTypes",
            "failOnIncomplete",
            "timeLimit");

    /** The largest {@code timeLimit}, in seconds (a day). */
    static final long MAX_TIME_LIMIT_SECONDS = 86_400;

    /** The values a rule can be set to. */
    public static final List<String> RULE_VALUES = List.of("off", "on", "error", "warning", "note");

    private static final Pattern QUALIFIED_NAME =
            Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

    private final Path file;
    private final Set<String> knownRuleIds;

    private LintConfigLoader(Path file, Set<String> knownRuleIds) {
        this.file = file;
        this.knownRuleIds = new TreeSet<>(knownRuleIds);
    }

    /** Folders whose presence marks a repository root: the search for the configuration stops there. */
    public static final List<String> REPOSITORY_MARKERS = List.of(".git", ".hg", ".svn");

    /**
     * Looks for {@value #FILE_NAME} in {@code start} and the directories above it, up to and
     * including the repository root: the nearest directory holding {@code .git}, {@code .hg} or
     * {@code .svn}. Outside any repository only {@code start} itself is searched, so a file left in a
     * parent folder ({@code /tmp}, a home directory) never applies to a scan unseen.
     *
     * @param start the scan root (a directory; for a file, its directory)
     * @return the file found, absolute, or empty
     */
    public static Optional<Path> find(Path start) {
        return find(start, null);
    }

    /**
     * As {@link #find(Path)}, but outside any repository the search goes on up to {@code top} when
     * {@code start} lies below it (the Maven plugin passes the directory the build started in, so a
     * module finds the file of its reactor root).
     *
     * @param start the scan root (a directory; for a file, its directory)
     * @param top   the highest directory searched outside a repository, or null for {@code start} only
     * @return the file found, absolute, or empty
     */
    public static Optional<Path> find(Path start, Path top) {
        Path first = start.toAbsolutePath().normalize();
        if (!Files.isDirectory(first)) {
            first = first.getParent();
        }
        if (first == null) {
            return Optional.empty();
        }
        Path last = first;
        Path repository = null;
        for (Path dir = first; dir != null; dir = dir.getParent()) {
            if (isRepositoryRoot(dir)) {
                repository = dir;
                break;
            }
        }
        if (repository != null) {
            last = repository;
        } else if (top != null && first.startsWith(top.toAbsolutePath().normalize())) {
            last = top.toAbsolutePath().normalize();
        }
        for (Path dir = first; dir != null && dir.startsWith(last); dir = dir.getParent()) {
            Path candidate = dir.resolve(FILE_NAME);
            // a pipe or device of that name is found too, and refused by load: never opened, never ignored unseen
            if (Files.exists(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean isRepositoryRoot(Path dir) {
        for (String marker : REPOSITORY_MARKERS) {
            if (Files.exists(dir.resolve(marker))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads and validates a configuration file.
     *
     * @param file         the file
     * @param knownRuleIds ids of every installed rule; others in {@code rules} are errors
     * @return the configuration
     * @throws ConfigException when the file cannot be read, is not YAML, or holds an unknown key or a
     *                         bad value; the message names the file, line, column and what is allowed
     */
    public static LintConfig load(Path file, Set<String> knownRuleIds) {
        return new LintConfigLoader(file, knownRuleIds).read();
    }

    /**
     * Reads configuration text (for tests and tools that hold the text already).
     *
     * @param file         the name to report in messages; its directory anchors the globs
     * @param text         the YAML text
     * @param knownRuleIds ids of every installed rule
     * @return the configuration
     * @throws ConfigException as {@link #load}
     */
    public static LintConfig parse(Path file, String text, Set<String> knownRuleIds) {
        return new LintConfigLoader(file, knownRuleIds).parse(text);
    }

    private LintConfig read() {
        String text;
        try {
            // bounded, and never opened when it is not a regular file: a pipe would block, a device never end
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(BoundedReads.read(file, MAX_BYTES)))
                    .toString();
        } catch (BoundedReads.TooLargeException e) {
            throw new ConfigException(file, 0, 0, "file is larger than " + MAX_BYTES + " bytes", e);
        } catch (BoundedReads.SpecialFileException e) {
            throw new ConfigException(file, 0, 0, e.description() + ", not a regular file; not read", e);
        } catch (CharacterCodingException e) {
            throw new ConfigException(file, 0, 0, "file is not valid UTF-8", e);
        } catch (IOException e) {
            throw new ConfigException(
                    file,
                    0,
                    0,
                    "cannot read the file: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    e);
        }
        return parse(text);
    }

    private LintConfig parse(String text) {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(file.toString())
                .setMaxAliasesForCollections(50)
                .setAllowRecursiveKeys(false)
                .setAllowDuplicateKeys(true)
                .setCodePointLimit((int) MAX_BYTES)
                .build();
        Optional<Node> root;
        try {
            checkNesting(settings, text);
            root = new Compose(settings).composeString(text);
        } catch (MarkedYamlEngineException e) {
            Optional<Mark> m = e.getProblemMark().or(e::getContextMark);
            String problem = e.getProblem() != null ? e.getProblem() : String.valueOf(e.getMessage());
            throw new ConfigException(
                    file,
                    m.map(x -> x.getLine() + 1).orElse(0),
                    m.map(x -> x.getColumn() + 1).orElse(0),
                    "not valid YAML: "
                            + problem.lines().findFirst().orElse("syntax error").strip(),
                    e);
        } catch (YamlEngineException e) {
            throw new ConfigException(
                    file,
                    0,
                    0,
                    "not valid YAML: "
                            + String.valueOf(e.getMessage())
                                    .lines()
                                    .findFirst()
                                    .orElse("syntax error")
                                    .strip(),
                    e);
        }
        if (root.isEmpty() || isNull(root.get())) {
            return new LintConfig(
                    file.toAbsolutePath().normalize(),
                    Set.of(),
                    Map.of(),
                    List.of(),
                    List.of(),
                    null,
                    null,
                    Set.of(),
                    Set.of(),
                    Set.of(),
                    null,
                    null);
        }
        MappingNode top = mapping(root.get(), "the file", "a mapping of the keys " + String.join(", ", KEYS));
        Set<String> disabled = new TreeSet<>();
        Set<String> enabled = new TreeSet<>();
        Map<String, Severity> severities = new TreeMap<>();
        List<String> includes = List.of();
        List<String> excludes = List.of();
        PoolingSetting pooling = null;
        Boolean includeTests = null;
        Set<String> lockHelpers = Set.of();
        Set<String> pooledApiTypes = Set.of();
        Boolean failOnIncomplete = null;
        Duration timeLimit = null;
        Map<String, Node> seen = new HashMap<>();
        // every mistake of the file is reported at once, each at its own line: a user fixes them in one go
        List<ConfigException> problems = new ArrayList<>();
        for (NodeTuple t : top.getValue()) {
            try {
                String key = scalar(t.getKeyNode(), "a key");
                Node value = t.getValueNode();
                duplicate(seen, key, t.getKeyNode(), "key");
                switch (key) {
                    case "rules" -> {
                        if (isNull(value)) {
                            break;
                        }
                        Map<String, Node> seenRules = new HashMap<>();
                        for (NodeTuple r : mapping(
                                        value,
                                        "rules",
                                        "a mapping of rule id to one of " + String.join(", ", RULE_VALUES))
                                .getValue()) {
                            try {
                                String id = scalar(r.getKeyNode(), "a rule id");
                                duplicate(seenRules, id, r.getKeyNode(), "rule");
                                if (!knownRuleIds.contains(id)) {
                                    String hint = Names.closest(id, knownRuleIds);
                                    throw error(
                                            r.getKeyNode(),
                                            "rules: unknown rule '" + id + "'"
                                                    + (hint == null ? "" : " (did you mean " + hint + "?)")
                                                    + " (allowed: " + String.join(", ", knownRuleIds) + ")");
                                }
                                String v = scalar(
                                                r.getValueNode(),
                                                "one of " + String.join(", ", RULE_VALUES),
                                                "rules." + id)
                                        .toLowerCase(Locale.ROOT);
                                switch (v) {
                                    case "off" -> disabled.add(id);
                                    case "on" -> enabled.add(id);
                                    case "error", "warning", "note" -> {
                                        severities.put(id, Severity.parse(v));
                                        enabled.add(id);
                                    }
                                    default -> {
                                        // a shortened or lengthened value ("warn", "errors"); an edit
                                        // distance between such short words suggests nonsense ("loud": "off")
                                        String hint = v.isEmpty()
                                                ? null
                                                : RULE_VALUES.stream()
                                                        .filter(a -> a.startsWith(v) || v.startsWith(a))
                                                        .findFirst()
                                                        .orElse(null);
                                        throw error(
                                                r.getValueNode(),
                                                "rules." + id + ": '" + v + "' is not allowed"
                                                        + (hint == null ? "" : " (did you mean " + hint + "?)")
                                                        + " (allowed: " + String.join(", ", RULE_VALUES) + ")");
                                    }
                                }
                            } catch (ConfigException e) {
                                problems.add(e);
                            }
                        }
                    }
                    case "includes" -> includes = globs(value, key);
                    case "excludes" -> excludes = globs(value, key);
                    case "pooling" -> {
                        String v = scalar(value, "one of auto, transaction, statement, session, none", key);
                        try {
                            pooling = PoolingSetting.parse(v);
                        } catch (IllegalArgumentException e) {
                            throw error(
                                    value,
                                    "pooling: '" + v + "' is not allowed (allowed: auto, transaction,"
                                            + " statement, session, none)");
                        }
                    }
                    case "includeTests" -> {
                        String v = scalar(value, "true or false", key);
                        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                            throw error(value, "includeTests: '" + v + "' is not allowed (allowed: true, false)");
                        }
                        includeTests = Boolean.parseBoolean(v.toLowerCase(Locale.ROOT));
                    }
                    case "failOnIncomplete" -> {
                        String v = scalar(value, "true or false", key);
                        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                            throw error(value, "failOnIncomplete: '" + v + "' is not allowed (allowed: true, false)");
                        }
                        failOnIncomplete = Boolean.parseBoolean(v.toLowerCase(Locale.ROOT));
                    }
                    case "timeLimit" -> {
                        String v = scalar(value, "a number of seconds", key);
                        long seconds;
                        try {
                            seconds = Long.parseLong(v.strip());
                        } catch (NumberFormatException e) {
                            seconds = -1;
                        }
                        if (seconds < 1 || seconds > MAX_TIME_LIMIT_SECONDS) {
                            throw error(
                                    value,
                                    "timeLimit: '" + v
                                            + "' is not allowed (allowed: a whole number of seconds from 1 to "
                                            + MAX_TIME_LIMIT_SECONDS + ")");
                        }
                        timeLimit = Duration.ofSeconds(seconds);
                    }
                    case "lockHelpers" ->
                        lockHelpers = names(
                                value,
                                key,
                                "method names such as acquire," + " Locks.acquire or com.acme.Locks.acquire");
                    case "pooledApiTypes" ->
                        pooledApiTypes = names(
                                value, key, "type names such as PooledDataSource" + " or com.acme.db.PooledDataSource");
                    default -> {
                        String hint = Names.closest(key, KEYS);
                        throw error(
                                t.getKeyNode(),
                                "unknown key '" + key + "'" + (hint == null ? "" : " (did you mean " + hint + "?)")
                                        + " (allowed: " + String.join(", ", KEYS) + ")");
                    }
                }
            } catch (ConfigException e) {
                problems.add(e);
            }
        }
        if (problems.size() == 1) {
            throw problems.get(0);
        }
        if (!problems.isEmpty()) {
            throw ConfigException.several(problems);
        }
        return new LintConfig(
                file.toAbsolutePath().normalize(),
                disabled,
                severities,
                includes,
                excludes,
                pooling,
                includeTests,
                lockHelpers,
                pooledApiTypes,
                enabled,
                failOnIncomplete,
                timeLimit);
    }

    /**
     * Reads the file's events (the event parser keeps its own stack, it does not recurse) and refuses
     * collections nested deeper than {@link #MAX_NESTING}, at the collection that goes too deep.
     */
    private void checkNesting(LoadSettings settings, String text) {
        ParserImpl parser = new ParserImpl(settings, new StreamReader(settings, text));
        int depth = 0;
        while (parser.hasNext()) {
            Event e = parser.next();
            switch (e.getEventId()) {
                case MappingStart, SequenceStart -> {
                    if (++depth > MAX_NESTING) {
                        Optional<Mark> m = e.getStartMark();
                        throw new ConfigException(
                                file,
                                m.map(x -> x.getLine() + 1).orElse(0),
                                m.map(x -> x.getColumn() + 1).orElse(0),
                                "collections nested more than " + MAX_NESTING + " levels deep",
                                null);
                    }
                }
                case MappingEnd, SequenceEnd -> depth--;
                default -> {}
            }
        }
    }

    private List<String> globs(Node value, String key) {
        List<String> out = new ArrayList<>();
        for (Node item : items(value, key, "globs")) {
            String glob = scalar(item, "a glob", key);
            try {
                Globs.check(glob);
            } catch (IllegalArgumentException e) {
                throw error(item, key + ": " + e.getMessage());
            }
            out.add(glob);
        }
        return out;
    }

    private Set<String> names(Node value, String key, String what) {
        Set<String> out = new LinkedHashSet<>();
        for (Node item : items(value, key, what)) {
            String name = scalar(item, "a name", key).trim();
            if (!QUALIFIED_NAME.matcher(name).matches()) {
                throw error(item, key + ": '" + name + "' is not a Java name (allowed: " + what + ")");
            }
            out.add(name);
        }
        return out;
    }

    /** A list, a single scalar (one item), or null (no item). */
    private List<Node> items(Node value, String key, String what) {
        if (isNull(value)) {
            return List.of();
        }
        if (value instanceof ScalarNode) {
            return List.of(value);
        }
        if (value instanceof SequenceNode seq) {
            return seq.getValue();
        }
        throw error(value, key + ": expected a list of " + what + ", found a mapping");
    }

    private MappingNode mapping(Node node, String what, String expected) {
        if (node instanceof MappingNode m) {
            return m;
        }
        throw error(node, what + ": expected " + expected + ", found " + kind(node));
    }

    private String scalar(Node node, String expected) {
        return scalar(node, expected, null);
    }

    private String scalar(Node node, String expected, String key) {
        if (node instanceof ScalarNode s && !isNull(node)) {
            return s.getValue();
        }
        throw error(node, (key == null ? "" : key + ": ") + "expected " + expected + ", found " + kind(node));
    }

    private void duplicate(Map<String, Node> seen, String key, Node node, String what) {
        Node first = seen.putIfAbsent(key, node);
        if (first != null) {
            throw error(node, "duplicate " + what + " '" + key + "' (first at line " + line(first) + ")");
        }
    }

    /** A null value: tagged so, or a plain {@code ~}/{@code null} (the YAML 1.2 core schema's nulls). */
    private static boolean isNull(Node node) {
        return node instanceof ScalarNode s
                && (s.getTag().getValue().endsWith(":null")
                        || (s.getScalarStyle() == ScalarStyle.PLAIN && NULLS.contains(s.getValue())));
    }

    private static final Set<String> NULLS = Set.of("~", "null", "Null", "NULL");

    private static String kind(Node node) {
        if (isNull(node)) {
            return "nothing";
        }
        return node instanceof MappingNode ? "a mapping" : node instanceof SequenceNode ? "a list" : "a value";
    }

    private static int line(Node node) {
        return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    private ConfigException error(Node node, String problem) {
        return new ConfigException(
                file,
                line(node),
                node.getStartMark().map(m -> m.getColumn() + 1).orElse(0),
                problem,
                null);
    }
}
