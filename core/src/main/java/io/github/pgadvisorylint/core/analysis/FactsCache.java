package io.github.pgadvisorylint.core.analysis;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.TimeoutEvidence;
import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;

/**
 * The incremental-analysis cache ({@code scan --cache FILE}; the Maven plugin's
 * {@code target/pg-advisory-lint/cache.json}): what each file's front end extracted, keyed by the
 * SHA-256 of the file's bytes, so a later analysis of unchanged files skips reading their syntax and
 * only re-runs the lock model and the rules (which are cross-file) on the cached facts.
 *
 * <p>Validity. A cache is used only when it was written by the same tool build and the same
 * fact-relevant settings (pooling, configured lock helpers and pooled API types); rule switches and
 * severities do not matter, because rules always run again. SQL and configuration files are reused
 * one by one when their hash is unchanged. Java facts depend on other files (constants, lock helpers,
 * mapper XML), so they are reused together or not at all: only when every file that took part in the
 * Java analysis is unchanged and no changed or new Java file could take part (one that mentions
 * advisory locks, calls a known helper name, or declares a type the analysed files refer to).
 * Otherwise the Java part runs again, file by file: every taking part file is outlined again (the
 * outlines are cheap), and a file whose bytes are unchanged and whose extraction would read the same
 * constant index and helper registry as the cached one (by digest) keeps its cached facts without
 * being parsed; the edited files, and the files an edit can reach, are extracted again. Either way the
 * result equals a run without cache, byte for byte.
 *
 * <p>Not thread-safe: one analysis at a time. Reading (on a background thread) never throws: an unreadable, corrupt or foreign
 * file is ignored and {@link #problem()} says why. Nothing is written until {@link #save()}.
 */
public final class FactsCache {

    /** Version of the file's layout; a cache with another is ignored. */
    static final int FORMAT = 3;

    /**
     * Cache files larger than this are ignored rather than read (bytes): a cache of 20,000 lock-using
     * files is about 40 MB, and mapping a file takes several times its size in heap.
     */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    /** The JSON mapping, built on first use (off the caller's thread when loading: it takes a while). */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
                .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .build();
    }

    /** What reading the file gave: a snapshot or null, and a problem or null. */
    private record Loaded(Snapshot snapshot, String problem) {}

    private final Path file;
    private final CompletableFuture<Loaded> loading;
    private Snapshot next;
    private Stats stats = new Stats(0, 0, false);

    private FactsCache(Path file) {
        this.file = file;
        this.loading = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try {
                        loading.complete(read(file));
                    } catch (Throwable t) {
                        // out of memory or worse: the analysis must not wait for a result that never comes
                        loading.complete(
                                new Loaded(null, "cannot use cache file " + file + " (" + t + "); analysing afresh"));
                    }
                },
                "pg-advisory-lint-cache-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts reading a cache file in the background and returns at once; {@link #problem()} and the
     * analysis wait for it. A missing file gives an empty cache; an unreadable, oversized or corrupt
     * one gives an empty cache whose {@link #problem()} says why.
     *
     * @param file where the cache lives; {@link #save()} writes there too
     * @return the cache; never null, never throws
     */
    public static FactsCache load(Path file) {
        return new FactsCache(Objects.requireNonNull(file, "file"));
    }

    private static Loaded read(Path file) {
        try {
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                // a directory, a named pipe or a device: reading could block or never end
                return new Loaded(null, "cache file " + file + " is not a regular file; ignored");
            }
            if (Files.size(file) > MAX_BYTES) {
                return new Loaded(null, "cache file " + file + " is larger than " + MAX_BYTES + " bytes; ignored");
            }
            try (InputStream in = Files.newInputStream(file)) {
                JsonNode tree = Json.MAPPER.readTree(in);
                JsonNode format = tree == null ? null : tree.get("format");
                if (format != null && format.isInt() && format.intValue() > 0 && format.intValue() != FORMAT) {
                    return new Loaded(null, null); // another layout, written by another version: silently replaced
                }
                Snapshot s =
                        tree == null || tree.isMissingNode() ? null : Json.MAPPER.treeToValue(tree, Snapshot.class);
                if (s == null || !s.wellFormed()) {
                    return new Loaded(
                            null,
                            "cannot use cache file " + file
                                    + " (not a pg-advisory-lint cache: fields are missing or null); analysing afresh");
                }
                // the checksum covers the file as written, with its own value null (see seal)
                ((ObjectNode) tree).putNull("integrity");
                if (!s.integrity().equals(seal(tree))) {
                    return new Loaded(
                            null,
                            "cannot use cache file " + file
                                    + " (its contents do not match the checksum it was written with: edited or damaged); analysing afresh");
                }
                return new Loaded(s, null);
            }
        } catch (NoSuchFileException e) {
            return new Loaded(null, null);
        } catch (IOException | RuntimeException | LinkageError e) {
            return new Loaded(null, "cannot use cache file " + file + " (" + describe(e) + "); analysing afresh");
        }
    }

    /** @return why reading failed, in the user's terms (no class names of the JSON mapping) */
    private static String describe(Throwable e) {
        String at = "";
        if (e instanceof JsonProcessingException j
                && j.getLocation() != null
                && j.getLocation().getLineNr() > 0) {
            at = " at line " + j.getLocation().getLineNr() + ", column "
                    + j.getLocation().getColumnNr();
        }
        if (e instanceof StreamConstraintsException) {
            return "too deeply nested or too large" + at;
        }
        if (e instanceof JsonParseException || e instanceof JsonEOFException) {
            return "not valid JSON" + at;
        }
        if (e instanceof JsonMappingException) {
            return "not a pg-advisory-lint cache: unexpected content" + at;
        }
        if (e instanceof AccessDeniedException) {
            return "access denied";
        }
        return e instanceof IOException ? "cannot read it: " + e.getClass().getSimpleName() : e.toString();
    }

    /** @return the cache file */
    public Path file() {
        return file;
    }

    /** @return why the file on disk could not be used, when it exists but is unreadable or corrupt */
    public Optional<String> problem() {
        return Optional.ofNullable(loading.join().problem());
    }

    /** @return how the last analysis with this cache used it (zeros before any) */
    public Stats stats() {
        return stats;
    }

    /**
     * Writes what the last analysis found, replacing the file atomically ({@link AtomicFiles}).
     * Does nothing when no analysis ran with this cache.
     *
     * @return what {@link AtomicFiles#write} did ({@link AtomicFiles.Outcome#REPLACED_LINK}: the cache
     *     file was a symbolic link leading out of its directory, replaced by the cache), or empty when
     *     nothing was written
     * @throws IOException when the file or its directory cannot be written, or the path exists and is
     *                     not a regular file (a directory, a named pipe, a device)
     */
    public Optional<AtomicFiles.Outcome> save() throws IOException {
        if (next == null) {
            return Optional.empty();
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new IOException(file + " is not a regular file");
        }
        if (!replaceable(file)) {
            throw new IOException(file + " exists and is not a pg-advisory-lint cache; not replaced (delete it or"
                    + " choose another cache file)");
        }
        Snapshot sealed = next.withIntegrity(seal(next.withIntegrity(null)));
        // every non-ASCII character as a \\u escape: the facts may hold half a surrogate pair (a Java string
        // "\\uD800"), which UTF-8 text cannot; the checksum is over the JSON as parsed, so it is unchanged
        return Optional.of(AtomicFiles.write(
                file,
                w -> Json.MAPPER
                        .writer()
                        .with(JsonWriteFeature.ESCAPE_NON_ASCII)
                        .writeValue(w, sealed)));
    }

    /**
     * The checksum a snapshot is written with: the SHA-256 of its JSON with the checksum itself null.
     * Reading computes it again over the JSON tree read, with the checksum set to null in place (the
     * same text: the mapping writes a value and the tree read from it alike), so an entry edited by
     * hand (facts emptied, another file's facts, a changed {@code extractedWith}, {@code called} or
     * {@code earlier}) makes the whole file unusable with a problem instead of changing the result. It
     * is computed over the text, never over objects read back (a set read back may iterate in another
     * order). It guards against mistakes and damage, not against someone who recomputes it.
     *
     * @param value a snapshot whose checksum is null, or the tree of one
     */
    private static String seal(Object value) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        try (DigestOutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
            Json.MAPPER.writeValue(out, value);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Whether {@link #save()} may replace the file: it is missing or empty, or it starts like a cache
     * (a JSON object whose first field is {@code "files"}, as every layout writes it, even when cut
     * short), so a source, configuration or report file named by mistake is never overwritten.
     */
    private static boolean replaceable(Path file) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return true;
        }
        byte[] head = new byte[16];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        String start = new String(head, 0, n, StandardCharsets.UTF_8).replaceAll("\\s", "");
        return start.startsWith("{\"files\"") || "{\"files\"".startsWith(start);
    }

    /**
     * @param fingerprint the tool build and settings of the analysis about to run
     * @return the loaded snapshot when it was written with that fingerprint, else null
     */
    Snapshot usable(String fingerprint) {
        Snapshot loaded = loading.join().snapshot();
        return loaded != null && fingerprint.equals(loaded.fingerprint()) ? loaded : null;
    }

    /** Keeps what an analysis found, for {@link #save()}, and how it used the cache. */
    void record(Snapshot snapshot, Stats used) {
        this.next = snapshot;
        this.stats = used;
    }

    /**
     * The fingerprint of the tool build and the fact-relevant settings: the tool version, plus the
     * size and modification time of the jar holding this class (so two builds of one SNAPSHOT version
     * never share facts), the format, and the settings.
     *
     * @param settings the fact-relevant settings, in a stable textual form
     * @return the fingerprint
     */
    static String fingerprint(String settings) {
        String build = "";
        try {
            var source = FactsCache.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path jar = Path.of(source.getLocation().toURI());
                if (Files.isRegularFile(jar)) {
                    build = Files.size(jar) + "@"
                            + Files.getLastModifiedTime(jar).toMillis();
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            build = "unknown";
        }
        return "format=" + FORMAT + ";tool=" + ToolInfo.version() + ";build=" + build + ";" + settings;
    }

    /**
     * How an analysis used the cache.
     *
     * @param filesReused   files whose cached facts were used without reading their syntax
     * @param filesAnalysed files whose facts were extracted anew (parsed Java, SQL, mapper and
     *                      configuration files)
     * @param javaReused    whether the Java facts as a whole came from the cache
     * @param extractionsReused Java files whose cached facts were kept file by file (unchanged, reading
     *                      the same index and registry) when the Java facts as a whole could not be
     * @param parses        whole-file Java parses this analysis made
     */
    public record Stats(int filesReused, int filesAnalysed, boolean javaReused, int extractionsReused, int parses) {

        /** Statistics without the Java part's counts. */
        public Stats(int filesReused, int filesAnalysed, boolean javaReused) {
            this(filesReused, filesAnalysed, javaReused, 0, 0);
        }
    }

    /**
     * What one analysis left for the next.
     *
     * @param format           {@link #FORMAT}
     * @param fingerprint      see {@link #fingerprint(String)}
     * @param javaReusable     false in a cache an older version wrote after abandoning a Java file over its
     *                         time budget (those facts depended on the machine): the Java facts are then
     *                         extracted again. A run now stops at its time limit instead, so it writes true
     * @param watchedTypeNames simple type names the analysed Java files refer to: a new file of that
     *                         name could supply constants
     * @param helperCallNames  names of the lock helpers: a file calling one takes part in the analysis
     * @param files            relative path to entry, for every file read
     * @param integrity        the checksum of the rest, set when the file is written; null before
     */
    record Snapshot(
            int format,
            String fingerprint,
            boolean javaReusable,
            SortedSet<String> watchedTypeNames,
            SortedSet<String> helperCallNames,
            SortedMap<String, Entry> files,
            String integrity) {

        /** A snapshot as an analysis leaves it, before it is written. */
        Snapshot(
                int format,
                String fingerprint,
                boolean javaReusable,
                SortedSet<String> watchedTypeNames,
                SortedSet<String> helperCallNames,
                SortedMap<String, Entry> files) {
            this(format, fingerprint, javaReusable, watchedTypeNames, helperCallNames, files, null);
        }

        /** @return the same snapshot with this checksum */
        Snapshot withIntegrity(String checksum) {
            return new Snapshot(format, fingerprint, javaReusable, watchedTypeNames, helperCallNames, files, checksum);
        }

        /** @return whether every field the analysis reads is present (a hand-edited file may lack some) */
        boolean wellFormed() {
            // (sorted sets and maps cannot hold null elements or keys: reading such a file already failed)
            if (fingerprint == null
                    || watchedTypeNames == null
                    || helperCallNames == null
                    || files == null
                    || integrity == null) {
                return false;
            }
            for (Entry v : files.values()) {
                if (v == null
                        || v.sha256() == null
                        || v.pooling() == null
                        || v.timeouts() == null
                        || (v.extractedWith() != null && (v.called() == null || v.facts() == null))
                        || (v.earlier() != null
                                && v.earlier().stream()
                                        .anyMatch(x -> x == null
                                                || x.with() == null
                                                || x.called() == null
                                                || x.helpers() == null))
                        || v.pooling().contains(null)
                        || v.timeouts().contains(null)
                        // FileFacts copies its lists with List.copyOf, which already rejects null elements
                        || (v.facts() != null && v.facts().path() == null)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * One file in a {@link Snapshot}.
     *
     * @param sha256   hex SHA-256 of the file's bytes
     * @param java     whether the file took part in the Java analysis (parsed as a candidate, helper
     *                 caller, constant holder or mapper interface, or a mapper XML file)
     * @param facts    its facts, or null when the prefilter ruled it out or it only supplied constants
     * @param pooling  pooling evidence found in it (configuration files), else empty
     * @param timeouts timeout evidence found in it (configuration files), else empty
     * @param extractedWith for a Java file extracted whole: the digest of what its extraction read
     *                      besides its own text (the constant index and the helper registry of that
     *                      round, see {@link JavaProject}); null otherwise
     * @param called   for a Java file extracted whole: the names it calls; null otherwise
     * @param earlier  for a Java file extracted in several helper rounds: what each extraction before
     *                 the last gave that the rounds read (its helpers and calls); null otherwise
     */
    record Entry(
            String sha256,
            boolean java,
            FileFacts facts,
            List<PoolingEvidence> pooling,
            List<TimeoutEvidence> timeouts,
            String extractedWith,
            SortedSet<String> called,
            List<Extraction> earlier) {

        /** An entry of a file that was not extracted whole by the Java part. */
        Entry(
                String sha256,
                boolean java,
                FileFacts facts,
                List<PoolingEvidence> pooling,
                List<TimeoutEvidence> timeouts) {
            this(sha256, java, facts, pooling, timeouts, null, null, null);
        }
    }

    /**
     * What one extraction of a Java file in an earlier helper round gave to the rounds.
     *
     * @param with    the digest of the constant index and helper registry it read
     * @param called  the names the file calls
     * @param helpers the lock helpers it declares, as that round saw them
     */
    record Extraction(String with, SortedSet<String> called, List<HelperSummary> helpers) {}
}
