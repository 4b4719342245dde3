package io.github.pgadvisorylint.core.baseline;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.rule.Finding;
import io.github.pgadvisorylint.core.rule.FindingSuppression;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The findings a project has accepted for now. A baseline file is UTF-8 JSON, sorted, one entry per
 * finding:
 * <pre>
 * {
 *   "version": 1,                       // format version; readers refuse any other
 *   "tool": "pg-advisory-lint",
 *   "findings": [                       // sorted by path, rule id, fingerprint
 *     {
 *       "ruleId": "lock-in-limit-query",
 *       "path": "src/main/java/com/acme/JobQueue.java",   // relative to the scan root, '/'-separated
 *       "fingerprint": "9c1f0a...",     // Finding.fingerprint(), SARIF partialFingerprints pgAdvisoryLint/v1
 *       "message": "..."                // for people reading the file; ignored when matching
 *     }
 *   ]
 * }
 * </pre>
 * A finding is in the baseline when an entry has its rule id and fingerprint. Fingerprints hash the
 * rule, the file, the code shape (lock function and key, enclosing method) and the occurrence index,
 * never line numbers, so code that moves keeps its entry; renaming the file or the enclosing method
 * makes it a new finding.
 *
 * @param entries the entries, sorted by path, rule id, fingerprint
 */
public record Baseline(List<Entry> entries) {

    /** The {@code version} this class reads and writes. */
    public static final int VERSION = 1;

    private static final Comparator<Entry> ORDER =
            Comparator.comparing(Entry::path).thenComparing(Entry::ruleId).thenComparing(Entry::fingerprint);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * The largest baseline read, in bytes (about 300,000 findings): a larger file is refused with a
     * message before any of it is read, instead of running out of memory.
     */
    static final long MAX_BYTES = 64L * 1024 * 1024;
    /** How deep a baseline's JSON may nest; a baseline nests 3 levels (object, array, entry). */
    static final int MAX_NESTING = 16;

    private static final ObjectMapper READER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build());

    /**
     * One accepted finding.
     *
     * @param ruleId      the rule id
     * @param path        the file, relative to the scan root
     * @param fingerprint the finding's fingerprint
     * @param message     the finding's message when it was recorded (documentation only)
     */
    public record Entry(String ruleId, String path, String fingerprint, String message) {
        /** Checks the fields; a null message becomes empty. */
        public Entry {
            Objects.requireNonNull(ruleId, "ruleId");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(fingerprint, "fingerprint");
            message = message == null ? "" : message;
        }

        /**
         * @param f a finding
         * @return its entry
         */
        public static Entry of(Finding f) {
            return new Entry(f.ruleId(), f.region().path(), f.fingerprint(), f.message());
        }

        private String key() {
            return ruleId + "\u0000" + fingerprint;
        }
    }

    /** Sorts and de-duplicates the entries. */
    public Baseline {
        List<Entry> sorted = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (Entry e : entries) {
            if (keys.add(e.key())) {
                sorted.add(e);
            }
        }
        sorted.sort(ORDER);
        entries = List.copyOf(sorted);
    }

    /**
     * @param findings findings to accept
     * @return a baseline holding exactly them
     */
    public static Baseline of(List<Finding> findings) {
        return new Baseline(findings.stream().map(Entry::of).toList());
    }

    /**
     * @param f a finding
     * @return true when an entry has its rule id and fingerprint
     */
    public boolean contains(Finding f) {
        String key = f.ruleId() + "\u0000" + f.fingerprint();
        return entries.stream().anyMatch(e -> e.key().equals(key));
    }

    /**
     * The baseline after a run: entries whose finding no longer occurs are dropped; findings not in
     * the baseline are added only when {@code recordAll} is true, so an update never accepts a new
     * finding silently.
     *
     * @param current   the active findings of the run (before this baseline was applied)
     * @param recordAll true to add every current finding not yet recorded
     * @return the updated baseline
     */
    public Baseline update(List<Finding> current, boolean recordAll) {
        Set<String> occurring = new HashSet<>();
        current.forEach(f -> occurring.add(f.ruleId() + "\u0000" + f.fingerprint()));
        List<Entry> kept = new ArrayList<>(
                entries.stream().filter(e -> occurring.contains(e.key())).toList());
        if (recordAll) {
            current.forEach(f -> kept.add(Entry.of(f)));
        }
        return new Baseline(kept);
    }

    /**
     * Moves the findings this baseline holds from the active findings to the suppressed ones, each
     * with a SARIF suppression of kind {@code external} (SARIF 2.1.0 §3.35.2) located at the baseline
     * file.
     *
     * @param result       an analysis result
     * @param baselinePath the baseline file as reports should name it (relative to the scan root when inside it)
     * @return the result with only the findings not in the baseline active
     */
    public AnalysisResult apply(AnalysisResult result, String baselinePath) {
        FindingSuppression why = new FindingSuppression(
                FindingSuppression.Kind.EXTERNAL,
                "accepted in the baseline " + baselinePath,
                SourceRegion.line(baselinePath, 1));
        List<Finding> active = new ArrayList<>();
        List<Finding> suppressed = new ArrayList<>(result.suppressed());
        for (Finding f : result.findings()) {
            if (contains(f)) {
                suppressed.add(f.withSuppression(why));
            } else {
                active.add(f);
            }
        }
        suppressed.sort(Comparator.comparing(Finding::region)
                .thenComparing(Finding::ruleId)
                .thenComparing(Finding::message)
                .thenComparing(Finding::fingerprint));
        return result.withFindings(active, suppressed);
    }

    /**
     * @param file a baseline file
     * @return its contents
     * @throws BaselineException when it cannot be read, is not JSON, has another {@code version}, or
     *                           an entry lacks {@code ruleId}, {@code path} or {@code fingerprint}
     */
    public static Baseline read(Path file) {
        JsonNode root;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new BaselineException(
                        file,
                        0,
                        "the baseline is " + size + " bytes, over the limit of " + MAX_BYTES
                                + " bytes; a baseline this large is not read (write a new one with --write-baseline)",
                        null);
            }
            root = READER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new BaselineException(file, line, "not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new BaselineException(
                    file,
                    0,
                    "cannot read the baseline: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    e);
        }
        if (root == null || !root.isObject()) {
            throw new BaselineException(
                    file,
                    0,
                    "not a baseline: expected a JSON object with \"version\": " + VERSION + " and \"findings\"",
                    null);
        }
        JsonNode version = root.get("version");
        if (version == null || !version.isInt() || version.intValue() != VERSION) {
            throw new BaselineException(
                    file,
                    0,
                    "unsupported baseline version " + version + " (this " + ToolInfo.NAME + " reads version " + VERSION
                            + ")",
                    null);
        }
        JsonNode findings = root.get("findings");
        if (findings == null || !findings.isArray()) {
            throw new BaselineException(file, 0, "\"findings\" must be an array", null);
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < findings.size(); i++) {
            JsonNode e = findings.get(i);
            entries.add(new Entry(
                    text(file, e, "ruleId", i),
                    text(file, e, "path", i),
                    text(file, e, "fingerprint", i),
                    e.path("message").asText("")));
        }
        return new Baseline(entries);
    }

    private static String text(Path file, JsonNode entry, String field, int index) {
        JsonNode v = entry.get(field);
        if (v == null || !v.isTextual() || v.textValue().isBlank()) {
            throw new BaselineException(
                    file, 0, "findings[" + index + "]: \"" + field + "\" must be a non-empty string", null);
        }
        return v.textValue();
    }

    /** @return the file contents: pretty-printed JSON, {@code \n} line ends, a final newline; deterministic */
    public String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("tool", ToolInfo.NAME);
        ArrayNode findings = root.putArray("findings");
        for (Entry e : entries) {
            ObjectNode n = findings.addObject();
            n.put("ruleId", e.ruleId());
            n.put("path", e.path());
            n.put("fingerprint", e.fingerprint());
            n.put("message", e.message());
        }
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        ObjectWriter writer = MAPPER.writer(new DefaultPrettyPrinter(separators)
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter));
        try {
            return writer.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings always serializes", e);
        }
    }

    /**
     * Writes the baseline atomically ({@link AtomicFiles#write}).
     *
     * @param file the target
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        String json = toJson();
        AtomicFiles.write(file, out -> out.write(json));
    }
}
