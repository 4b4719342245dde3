package io.github.pgadvisorylint.core.analysis;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.discovery.TestSources;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.flow.AspectAdvice;
import io.github.pgadvisorylint.core.java.ConstantIndex;
import io.github.pgadvisorylint.core.java.HelperRegistry;
import io.github.pgadvisorylint.core.java.JavaFrontEnd;
import io.github.pgadvisorylint.core.java.JavaOutline;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.mybatis.MyBatisMapperFrontEnd;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Java part of one analysis: the project's outline, its lock helpers, and the facts of every
 * Java file that takes part. No syntax tree outlives the task that made it, except the outlines the
 * {@link ConstantIndex} keeps (declarations only, see {@link JavaOutline}).
 *
 * <ol>
 *   <li><b>Outlines.</b> Each Java candidate (a file the prefilter passed) is outlined, and so are the
 *       files named like the types the outlined files refer to ({@link JavaOutline#referencedTypeNames}),
 *       three levels deep: their constants and types go into the index before any file is extracted,
 *       so every file sees the same index whatever the order of the work.</li>
 *   <li><b>Extraction and helper rounds.</b> Each candidate is parsed whole, extracted
 *       ({@link JavaFrontEnd#extract}) and its tree dropped in one task. The helper registry is built
 *       from the facts; while it changes (a helper calling a helper), the files that call a helper's
 *       name are extracted again with the new registry (parsed again: nothing was kept), and the
 *       files the prefilter ruled out that call a helper (by a token scan: the name as a call, in a
 *       file that names the helper's type or one of its super- or subtypes) join, outlined and
 *       extracted. At most {@value #MAX_HELPER_ROUNDS} rounds. Then the callers of the methods that lock but
 *       are no helpers join once, for their transaction ({@link #joinContextCallers}).</li>
 *   <li><b>Mapper XML files</b> are analysed with their mapper interface; their statements are helpers.</li>
 * </ol>
 *
 * <p>One instance runs one analysis ({@link #analyze} once), on the analysis thread; its tasks return
 * values and write none of its fields.
 */
final class JavaProject {

    private static final ApiCatalog API = ApiCatalog.standard();

    /** Rounds of helper discovery: a helper calling a helper calling a helper is three. */
    static final int MAX_HELPER_ROUNDS = 5;

    /**
     * A method without parameters that returns a JDBC {@code Connection} ({@code Connection connection()}): the
     * accessor of a connection an object keeps, whose callers' statements all run on that one session.
     */
    private static final Pattern CONNECTION_ACCESSOR = Pattern.compile(
            "\\b(?:java\\.sql\\.)?Connection\\s+[a-z]\\w*\\s*\\(\\s*\\)\\s*(?:throws\\s[\\w\\s,.]+)?\\{");

    /** A field of type {@code Connection}: the connection an object keeps ({@code private Connection connection;}). */
    private static final Pattern CONNECTION_FIELD = Pattern.compile(
            "(?m)^\\s*(?:(?:private|protected|public|volatile|transient)\\s+)*(?:java\\.sql\\.)?Connection\\s+\\w+\\s*(?:=\\s*null\\s*)?;");

    /** {@code new Name(} or {@code new Name<}: a type the code constructs. */
    private static final Pattern CONSTRUCTED = Pattern.compile("\\bnew\\s+([A-Z][A-Za-z0-9_]*)\\s*[(<]");

    /** Levels of files read for the types other files refer to. */
    static final int CONSTANT_LEVELS = 3;

    /** Reads a file the prefilter did not pass, for its constants or its helper calls. */
    interface Reader {
        /**
         * @param f      the file
         * @param wanted decides on the text whether to go on; null for always
         * @return what reading gave (see {@link SourceReader#read})
         */
        SourceReader.Read read(DiscoveredFile f, Predicate<String> wanted);
    }

    /**
     * What the Java part found.
     *
     * @param facts            facts by file slot: the candidates, the helper callers, the mapper files
     * @param registry         the final helper registry
     * @param participants     relative paths of the files that took part (outlined, parsed or mapped)
     * @param watchedTypeNames simple type names the outlined files refer to (a new file of that name could change the result)
     * @param hashes           SHA-256 of the files read here (outlined for their types, or callers), by relative path
     * @param counts           what was parsed: outlines, whole-file parses, of which repeated for helper rounds
     * @param lossy            slots of the helper callers read as ISO-8859-1 (not valid UTF-8)
     * @param extracted        for each slot extracted whole: every extraction in order, the last one giving its facts
     */
    record Result(
            SortedMap<Integer, FileFacts> facts,
            HelperRegistry registry,
            SortedSet<String> participants,
            SortedSet<String> watchedTypeNames,
            Map<String, String> hashes,
            Counts counts,
            Set<Integer> lossy,
            Map<Integer, List<FactsCache.Extraction>> extracted) {}

    /**
     * @param outlines    files outlined
     * @param parses      whole-file parses
     * @param repeated    of those, parses of a file parsed before (for a later helper round)
     * @param reused      extractions taken from the cache instead (the file and what it reads unchanged)
     */
    record Counts(int outlines, int parses, int repeated, int reused) {}

    /** An outlined file: what the index takes, the names it refers to, or why it failed; its hash when read here. */
    private record Outlined(
            ConstantIndex.Contribution contribution,
            SortedSet<String> referenced,
            FileFacts failed,
            String hash,
            String digest) {
        Outlined withHash(String sha256) {
            return new Outlined(contribution, referenced, failed, sha256, digest);
        }

        Outlined withReferenced(SortedSet<String> names) {
            return new Outlined(contribution, names, failed, hash, digest);
        }
    }

    /** A mapper file's facts, and the hash of its interface's file when read. */
    private record Mapped(FileFacts facts, String interfaceHash) {}

    /**
     * An extracted file: its facts, the names it calls (see {@link JavaFrontEnd#calledNames}), and
     * the digest of the index and registry it was extracted with.
     */
    private record Extracted(FileFacts facts, Set<String> called, String with) {}

    /**
     * A file extracted by an earlier analysis, as its cache entry kept it.
     *
     * @param sha256 the hash of its bytes then
     * @param with   the digest of the constant index and helper registry it was extracted with
     * @param facts  its facts
     * @param called the names it calls
     */
    record Previous(
            String sha256, String with, FileFacts facts, Set<String> called, List<FactsCache.Extraction> earlier) {}

    private final FileTasks tasks;
    private final JavaFrontEnd frontEnd;
    private final MyBatisMapperFrontEnd mapperFrontEnd;
    private final List<DiscoveredFile> files;
    private final Reader reader;
    private final Set<String> configuredHelperNames;
    private final Consumer<String> phaseDone;
    private final Set<Integer> ruledOut;
    /**
     * The Java files by the simple type name they are expected to declare (their file name), in slot
     * order: several modules or packages may each have a {@code Keys.java}, and every one of them is
     * outlined when a file refers to {@code Keys} (the index tells them apart by package and imports).
     */
    private final Map<String, List<DiscoveredFile>> javaByTypeName = new HashMap<>();

    private final ConstantIndex index = new ConstantIndex();
    /** The text of every file that is extracted, by slot. */
    private final SortedMap<Integer, SourceFile> members = new TreeMap<>();

    private final Set<String> outlined = new HashSet<>();
    private final SortedSet<String> participants = new TreeSet<>();
    private final SortedSet<String> watched = new TreeSet<>();
    private final Map<String, String> hashes = new HashMap<>();
    private final Set<Integer> parsedBefore = new HashSet<>();
    private final Set<Integer> lossy = new TreeSet<>();
    private int reusedCount;
    /** The helper names of the previous analysis, or null without a usable cache. */
    private Set<String> previousNames;
    /** Slots of the ruled-out Java files whose text calls one of {@link #previousNames}. */
    private Set<Integer> callPreviousNames = Set.of();
    /** What the previous analysis extracted, by relative path; empty without a usable cache. */
    private Map<String, Previous> previous = Map.of();
    /** The hash of each file's bytes, by relative path (when a cache is in use). */
    private Map<String, String> fileHashes = Map.of();
    /** Path and outline digest of each contribution, in the order the index took them. */
    private final StringBuilder indexOrder = new StringBuilder();

    private String indexDigest;
    private final Map<Integer, List<FactsCache.Extraction>> extractedWith = new TreeMap<>();
    /**
     * Slots whose last extraction came from a cached earlier round: only its helpers and calls are
     * known, so it is extracted for real when no later round will extract it again.
     */
    private final Set<Integer> placeholders = new TreeSet<>();
    /** The annotations whose users {@link #joinAdvised} has joined. */
    private final Set<String> aspectsJoined = new TreeSet<>();

    private int outlineCount;
    private int parseCount;
    private int repeatedCount;

    /**
     * @param tasks                 the budgeted executor
     * @param frontEnd              the Java front end
     * @param mapperFrontEnd        the MyBatis front end
     * @param files                 every discovered file, by slot
     * @param reader                reads files the prefilter did not pass
     * @param ruledOut              slots of the Java files the prefilter ruled out (they may join as helper callers)
     * @param configuredHelperNames method names of the configured lock helpers (their callers take part)
     * @param phaseDone             told the name of each phase as it ends
     */
    JavaProject(
            FileTasks tasks,
            JavaFrontEnd frontEnd,
            MyBatisMapperFrontEnd mapperFrontEnd,
            List<DiscoveredFile> files,
            Reader reader,
            Set<Integer> ruledOut,
            Set<String> configuredHelperNames,
            Consumer<String> phaseDone) {
        this.tasks = tasks;
        this.ruledOut = ruledOut;
        this.frontEnd = frontEnd;
        this.mapperFrontEnd = mapperFrontEnd;
        this.files = files;
        this.reader = reader;
        this.configuredHelperNames = configuredHelperNames;
        this.phaseDone = phaseDone;
        for (int i = 0; i < files.size(); i++) {
            DiscoveredFile f = files.get(i);
            if (f.kind() == FileKind.JAVA) {
                javaByTypeName
                        .computeIfAbsent(typeName(f), k -> new ArrayList<>())
                        .add(f);
            }
        }
    }

    /**
     * Runs the Java part.
     *
     * @param candidates the Java files the prefilter passed, by slot
     * @param mappers    the mapper XML files, by slot
     * @return the facts and what the cache needs
     */
    Result analyze(SortedMap<Integer, Staged.Text> candidates, SortedMap<Integer, Staged.Mapper> mappers) {
        return analyze(candidates, mappers, Map.of(), Map.of(), null, Set.of());
    }

    /**
     * Runs the Java part, taking from an earlier analysis the facts of every file whose bytes and
     * whose extraction's reads (index and registry, by digest) are unchanged.
     *
     * @param candidates the Java files the prefilter passed, by slot
     * @param mappers    the mapper XML files, by slot
     * @param previous   what the earlier analysis extracted, by relative path
     * @param knownHashes the hash of each file's bytes read so far, by relative path
     * @param previousNames the helper names of the earlier analysis, or null
     * @param callPreviousNames slots of the ruled-out Java files whose text calls one of {@code previousNames}
     *                   (the first read looked): a helper round whose names are all among them reads only these
     * @return the facts and what the cache needs
     */
    Result analyze(
            SortedMap<Integer, Staged.Text> candidates,
            SortedMap<Integer, Staged.Mapper> mappers,
            Map<String, Previous> previous,
            Map<String, String> knownHashes,
            Set<String> previousNames,
            Set<Integer> callPreviousNames) {
        this.previous = previous;
        this.previousNames = previousNames;
        this.callPreviousNames = callPreviousNames;
        this.fileHashes = new HashMap<>(knownHashes);
        SortedMap<Integer, FileFacts> facts = new TreeMap<>();
        Map<Integer, SourceFile> texts = new TreeMap<>();
        candidates.forEach((slot, t) -> texts.put(slot, t.file()));
        join(texts, facts);
        // callers of a method that returns lock SQL built in another file (Utils.buildLockQuery(...))
        // hold the lock site, though their own text names no advisory function: they join here
        SortedMap<String, Set<String>> providers = sqlProviders();
        // and so do the implementations of the abstract and interface methods the lock-using types declare:
        // a call of one runs the implementation (core.flow.CallGraph), whose statements and locks count there
        SortedMap<String, Set<String>> abstracts = abstractMethods(candidates.keySet());
        if (!providers.isEmpty() || !abstracts.isEmpty()) {
            Set<String> names = new TreeSet<>();
            providers.values().forEach(names::addAll);
            abstracts.values().forEach(names::addAll);
            Set<String> types = new TreeSet<>(relatedTypeNames(providers.keySet()));
            types.addAll(abstracts.keySet());
            join(callers(names, types), facts);
        }
        join(superclasses(candidates.keySet()), facts);
        joinAdvised(facts);
        join(transactionWrappers(texts), facts);
        phaseDone.accept("outlines");
        List<HelperSummary> mapperHelpers = analyzeMappers(mappers, facts);
        if (!configuredHelperNames.isEmpty()) {
            join(callers(configuredHelperNames, Set.of()), facts);
        }
        HelperRegistry registry = followHelpers(mapperHelpers, facts);
        return new Result(
                facts,
                registry,
                participants,
                watched,
                hashes,
                new Counts(outlineCount, parseCount, repeatedCount, reusedCount),
                lossy,
                extractedWith);
    }

    /**
     * Makes files members: outlines them and the files named like the types they refer to (three
     * levels), and adds those outlines to the index. A file whose outline cannot be parsed gets its
     * parse problem as facts and is not a member.
     */
    private void join(Map<Integer, SourceFile> texts, SortedMap<Integer, FileFacts> facts) {
        List<Integer> slots = new ArrayList<>();
        List<Outlined> frontier = new ArrayList<>();
        for (var e : texts.entrySet()) {
            participants.add(e.getValue().path());
            if (outlined.add(e.getValue().path())) {
                slots.add(e.getKey());
            } else {
                // outlined before for its types: in the index already; its own references are followed now
                members.put(e.getKey(), e.getValue());
                frontier.add(new Outlined(
                        null, JavaOutline.referencedTypeNames(e.getValue().text(), true), null, null, null));
            }
        }
        List<Outlined> done = tasks.map(slots, files::get, i -> outline(texts.get(i)));
        for (int k = 0; k < slots.size(); k++) {
            Outlined o = done.get(k);
            if (o == null) {
                continue;
            }
            outlineCount++;
            if (o.failed() != null) {
                facts.put(slots.get(k), o.failed());
                continue;
            }
            members.put(slots.get(k), texts.get(slots.get(k)));
            // a member's calls are made on the types it declares too, of its own package without an import
            frontier.add(o.withReferenced(
                    JavaOutline.referencedTypeNames(texts.get(slots.get(k)).text(), true)));
        }
        for (SourceFile f : texts.values()) {
            outlined.add(f.path());
        }
        for (int level = 0; level < CONSTANT_LEVELS && !frontier.isEmpty(); level++) {
            SortedSet<DiscoveredFile> wanted = new TreeSet<>(Comparator.comparing(DiscoveredFile::relativePath));
            for (Outlined o : frontier) {
                if (o.contribution() != null) {
                    addToIndex(o);
                }
                watched.addAll(o.referenced());
                for (String type : o.referenced()) {
                    for (DiscoveredFile f : javaByTypeName.getOrDefault(type, List.of())) {
                        if (!tasks.isSkipped(f.relativePath()) && outlined.add(f.relativePath())) {
                            wanted.add(f);
                        }
                    }
                }
            }
            List<DiscoveredFile> level0 = new ArrayList<>(wanted);
            List<Outlined> read = tasks.map(level0, f -> f, f -> {
                SourceReader.Read r = reader.read(f, null);
                return r.staged() instanceof Staged.Text t ? outline(t.file()).withHash(r.sha256()) : null;
            });
            frontier = new ArrayList<>();
            for (int k = 0; k < level0.size(); k++) {
                Outlined o = read.get(k);
                outlineCount += o == null ? 0 : 1;
                if (o != null && o.failed() == null) {
                    participants.add(level0.get(k).relativePath());
                    frontier.add(o);
                }
                if (o != null && o.hash() != null) {
                    hashes.put(level0.get(k).relativePath(), o.hash());
                }
            }
        }
        for (Outlined o : frontier) {
            if (o.contribution() != null) {
                addToIndex(o);
            }
        }
    }

    /** Adds an outline to the index, and to the digest of the index's contents. */
    private void addToIndex(Outlined o) {
        index.add(o.contribution());
        indexOrder
                .append(o.contribution().path())
                .append('\u0000')
                .append(o.digest())
                .append('\n');
        indexDigest = null;
    }

    /**
     * @return the digest of what an extraction with this registry reads besides the file itself: the
     *     index's outlines, in order, and the registry's signature
     */
    private String readsDigest(HelperRegistry registry) {
        if (indexDigest == null) {
            indexDigest = SourceReader.sha256(indexOrder.toString().getBytes(StandardCharsets.UTF_8));
        }
        // the signature says what the helpers do; the summaries also say where (regions a caller's facts copy)
        return SourceReader.sha256((indexDigest + "\n" + registry.signature() + "\n" + registry.summaries())
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return the digest of a file's outline: its text and where each character comes from (a
     *     declaration that moves moves its constants' regions)
     */
    private static String outlineDigest(SourceFile file, JavaOutline.Outline o) {
        StringBuilder sb = new StringBuilder(o.text()).append('\u0000');
        int lastLine = -1;
        for (int k = 0; k < o.fileOffsets().length; k++) {
            int line = file.lineOf(o.fileOffsets()[k]);
            if (line != lastLine) {
                sb.append(k)
                        .append(':')
                        .append(line)
                        .append(':')
                        .append(file.columnOf(o.fileOffsets()[k]))
                        .append(';');
                lastLine = line;
            }
        }
        return SourceReader.sha256(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the outline of a file, or its parse problem */
    private Outlined outline(SourceFile file) {
        JavaFrontEnd.OutlineParse o = frontEnd.outline(file);
        JavaFrontEnd.Parsed p = o.parsed();
        if (p.unit() == null) {
            return new Outlined(null, null, p.failed(), null, null);
        }
        return new Outlined(
                ConstantIndex.collect(p.unit(), p.file()),
                JavaOutline.referencedTypeNames(p.file().text()),
                null,
                null,
                outlineDigest(p.file(), o.outline()));
    }
    /**
     * Analyses the mapper XML files, each with its mapper interface (parsed whole when a Java file of
     * that simple name is in the scan, see {@link #mapperInterface}; not indexed).
     *
     * @return the helper summaries of their statements
     */
    private List<HelperSummary> analyzeMappers(
            SortedMap<Integer, Staged.Mapper> mappers, SortedMap<Integer, FileFacts> facts) {
        List<Integer> slots = new ArrayList<>(mappers.keySet());
        List<Mapped> done = tasks.map(slots, files::get, i -> {
            Staged.Mapper m = mappers.get(i);
            String hash = null;
            try {
                DiscoveredFile javaFile = mapperInterface(m.namespace());
                CompilationUnit unit = null;
                if (javaFile != null) {
                    SourceReader.Read r = reader.read(javaFile, null);
                    hash = r.sha256();
                    if (r.staged() instanceof Staged.Text t) {
                        unit = frontEnd.parse(t.file()).unit();
                    }
                }
                return new Mapped(mapperFrontEnd.analyze(m.file(), unit), hash);
            } catch (StackOverflowError | RuntimeException e) {
                return new Mapped(
                        FileFacts.failed(
                                m.file().path(),
                                List.of(new Notification(
                                        Severity.ERROR,
                                        "internal-error",
                                        "analysis of this file failed: " + e,
                                        SourceRegion.line(m.file().path(), 1)))),
                        hash);
            }
        });
        List<HelperSummary> out = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            Staged.Mapper m = mappers.get(slots.get(k));
            participants.add(m.file().path());
            String simple = m.namespace().substring(m.namespace().lastIndexOf('.') + 1);
            watched.add(simple);
            DiscoveredFile javaFile = mapperInterface(m.namespace());
            Mapped d = done.get(k);
            if (javaFile != null) {
                participants.add(javaFile.relativePath());
                if (d != null && d.interfaceHash() != null) {
                    hashes.put(javaFile.relativePath(), d.interfaceHash());
                }
            }
            if (d != null) {
                facts.put(slots.get(k), d.facts());
                out.addAll(d.facts().helpers());
            }
        }
        return out;
    }

    /**
     * Extracts the members, builds the helper registry, and repeats with the callers of new helpers
     * while the registry changes (see the class comment).
     *
     * @param fixed the helpers every round has (the mapper statements)
     * @return the final registry; {@code facts} gains every member's final facts
     */
    private HelperRegistry followHelpers(List<HelperSummary> fixed, SortedMap<Integer, FileFacts> facts) {
        HelperRegistry registry = HelperRegistry.EMPTY;
        // a file's facts depend on the registry only through its calls of helpers: one that calls none of
        // the helpers' names keeps the facts of the round it was last extracted in
        Map<Integer, FileFacts> lastFacts = new HashMap<>();
        Map<Integer, Set<String>> lastNames = new HashMap<>();
        Map<Integer, Set<String>> called = new HashMap<>();
        boolean converged = false;
        for (int round = 0; round < MAX_HELPER_ROUNDS; round++) {
            HelperRegistry current = registry;
            Set<String> names = current.callNames();
            List<Integer> todo = new ArrayList<>();
            for (int slot : members.keySet()) {
                if (tasks.isSkipped(files.get(slot).relativePath())) {
                    continue;
                }
                Set<String> calls = called.get(slot);
                if (!lastFacts.containsKey(slot)
                        || calls == null
                        || !Collections.disjoint(calls, names)
                        || !Collections.disjoint(calls, lastNames.get(slot))) {
                    todo.add(slot);
                }
            }
            extract(todo, current, lastFacts, lastNames, called, names);
            List<HelperSummary> summaries = new ArrayList<>(fixed);
            for (int slot : members.keySet()) {
                FileFacts f = lastFacts.get(slot);
                if (f != null && !tasks.isSkipped(files.get(slot).relativePath())) {
                    summaries.addAll(f.helpers());
                }
            }
            HelperRegistry next = new HelperRegistry(summaries, index);
            phaseDone.accept("helpers-round-" + round);
            boolean done = next.signature().equals(registry.signature());
            // a cached earlier round stands in for an extraction only while a later round extracts again
            Set<String> nextNames = next.callNames();
            boolean more = !done && round + 1 < MAX_HELPER_ROUNDS;
            List<Integer> realize = new ArrayList<>();
            for (int slot : placeholders) {
                Set<String> calls = called.get(slot);
                boolean again = more
                        ? !Collections.disjoint(calls, nextNames) || !Collections.disjoint(calls, names)
                        : !done && !Collections.disjoint(calls, nextNames);
                if (!again) {
                    realize.add(slot);
                }
            }
            if (!realize.isEmpty()) {
                previous = withoutEarlier(realize);
                extract(realize, current, lastFacts, lastNames, called, names);
            }
            if (done) {
                converged = true;
                break;
            }
            registry = next;
            join(callers(registry.callNames(), helperTypeNames(registry)), facts);
            joinAdvised(facts); // an aspect that locks through a helper joins with the helper's callers
        }
        if (!converged) {
            // the last registry is not the one the last round used: extract its callers once more
            List<Integer> todo = new ArrayList<>();
            Set<String> names = registry.callNames();
            for (int slot : members.keySet()) {
                Set<String> calls = called.get(slot);
                if (!lastFacts.containsKey(slot) || calls == null || !Collections.disjoint(calls, names)) {
                    todo.add(slot);
                }
            }
            extract(todo, registry, lastFacts, lastNames, called, names);
            if (!placeholders.isEmpty()) {
                List<Integer> realize = new ArrayList<>(placeholders);
                previous = withoutEarlier(realize);
                extract(realize, registry, lastFacts, lastNames, called, names);
            }
        }
        joinContextCallers(registry, lastFacts, lastNames, called);
        for (int slot : members.keySet()) {
            if (lastFacts.containsKey(slot) && !tasks.isSkipped(files.get(slot).relativePath())) {
                facts.put(slot, lastFacts.get(slot));
            }
        }
        return registry;
    }

    /**
     * The callers of the methods that lock but are no helpers (their key is fixed, or computed from a parameter in
     * a way a helper summary does not carry: {@code tryEnter(name)} hashing its name): such a method runs in its
     * callers' transaction ({@code core.flow.CallingContexts}), so the files that call it by name, in a file naming
     * its type, join (one level up) and are extracted with the final registry. Their calls lock nothing of their
     * own; their transaction is the method's.
     */
    private void joinContextCallers(
            HelperRegistry registry,
            Map<Integer, FileFacts> lastFacts,
            Map<Integer, Set<String>> lastNames,
            Map<Integer, Set<String>> called) {
        Set<String> helpers = registry.callNames();
        Set<String> names = new TreeSet<>();
        Set<String> types = new TreeSet<>();
        for (Map.Entry<Integer, FileFacts> e : lastFacts.entrySet()) {
            if (tasks.isSkipped(files.get(e.getKey()).relativePath())
                    || TestSources.isTestSource(files.get(e.getKey()).relativePath())) {
                continue; // a test's locking method is called by tests, whose transactions are no production's
            }
            for (LockSite site : e.getValue().sites()) {
                JavaContext j = site.java();
                if (j == null || j.methodName() == null || j.methodName().startsWith("<")) {
                    continue;
                }
                if (!helpers.contains(j.methodName())) {
                    names.add(j.methodName());
                    types.add(j.typeName());
                }
            }
        }
        if (names.isEmpty()) {
            return;
        }
        Map<Integer, SourceFile> joined = callers(names, types);
        if (joined.isEmpty()) {
            return;
        }
        SortedMap<Integer, FileFacts> failed = new TreeMap<>();
        join(joined, failed);
        failed.forEach(lastFacts::put);
        List<Integer> todo = new ArrayList<>();
        for (int slot : members.keySet()) {
            if (!lastFacts.containsKey(slot) && !tasks.isSkipped(files.get(slot).relativePath())) {
                todo.add(slot);
            }
        }
        extract(todo, registry, lastFacts, lastNames, called, helpers);
    }

    /** @return the previous analysis without the earlier rounds of these slots (their extraction must be real) */
    private Map<String, Previous> withoutEarlier(List<Integer> slots) {
        Map<String, Previous> out = new HashMap<>(previous);
        for (int slot : slots) {
            String path = files.get(slot).relativePath();
            Previous p = out.get(path);
            if (p != null) {
                out.put(path, new Previous(p.sha256(), p.with(), p.facts(), p.called(), null));
            }
        }
        return out;
    }

    /** Parses and extracts files with a registry, one task each (the tree is dropped when the task ends). */
    private void extract(
            List<Integer> todo,
            HelperRegistry registry,
            Map<Integer, FileFacts> lastFacts,
            Map<Integer, Set<String>> lastNames,
            Map<Integer, Set<String>> called,
            Set<String> names) {
        String with = readsDigest(registry);
        List<Integer> parse = new ArrayList<>();
        for (int slot : todo) {
            String path = files.get(slot).relativePath();
            Previous before = previous.get(path);
            boolean same = before != null && before.sha256().equals(fileHashes.get(path));
            FactsCache.Extraction earlier = !same || before.earlier() == null
                    ? null
                    : before.earlier().stream()
                            .filter(x -> x.with().equals(with))
                            .findFirst()
                            .orElse(null);
            if (same && before.with().equals(with)) {
                // the same text read with the same index and registry: the same facts, without a parse
                reusedCount++;
                record(slot, new Extracted(before.facts(), before.called(), with), names, lastFacts, lastNames, called);
            } else if (earlier != null) {
                // as in an earlier round of the cached analysis: its helpers and calls, facts to come
                reusedCount++;
                FileFacts helpersOnly = new FileFacts(
                        path,
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        earlier.helpers(),
                        List.of(),
                        Map.of(),
                        Map.of(),
                        List.of(),
                        Map.of());
                record(slot, new Extracted(helpersOnly, earlier.called(), with), names, lastFacts, lastNames, called);
                placeholders.add(slot);
            } else {
                parse.add(slot);
            }
        }
        List<Extracted> done = tasks.map(parse, files::get, i -> {
            JavaFrontEnd.Parsed p = frontEnd.parse(members.get(i));
            if (p.unit() == null) {
                return new Extracted(p.failed(), Set.of(), with);
            }
            return new Extracted(frontEnd.extract(p, index, registry), JavaFrontEnd.calledNames(p.unit()), with);
        });
        for (int k = 0; k < parse.size(); k++) {
            int slot = parse.get(k);
            Extracted e = done.get(k);
            if (e == null) {
                continue;
            }
            parseCount++;
            if (!parsedBefore.add(slot)) {
                repeatedCount++;
            }
            record(slot, e, names, lastFacts, lastNames, called);
        }
    }

    private void record(
            int slot,
            Extracted e,
            Set<String> names,
            Map<Integer, FileFacts> lastFacts,
            Map<Integer, Set<String>> lastNames,
            Map<Integer, Set<String>> called) {
        lastFacts.put(slot, e.facts());
        lastNames.put(slot, names);
        called.put(slot, e.called());
        placeholders.remove(slot);
        List<FactsCache.Extraction> history = extractedWith.computeIfAbsent(slot, k -> new ArrayList<>());
        if (!history.isEmpty() && history.get(history.size() - 1).with().equals(e.with())) {
            history.remove(history.size() - 1); // a placeholder made real: the same extraction
        }
        history.add(new FactsCache.Extraction(
                e.with(), new TreeSet<>(e.called()), e.facts().helpers()));
    }

    /**
     * The prefilter's second pass: the Java files not taking part yet whose text calls one of the
     * names, in a file that names one of the types (none given: any file calling a name).
     *
     * @return their texts by slot
     */
    private Map<Integer, SourceFile> callers(Set<String> names, Set<String> typeNames) {
        List<Integer> unread = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            DiscoveredFile f = files.get(i);
            if (ruledOut.contains(i) && !members.containsKey(i) && !tasks.isSkipped(f.relativePath())) {
                unread.add(i);
            }
        }
        if (previousNames != null && previousNames.containsAll(names)) {
            // the first read already looked for these names: only the files it saw call one can
            unread.removeIf(i -> !callPreviousNames.contains(i));
        }
        return read(
                unread,
                text -> SourceReader.callsAny(text, names)
                        && (typeNames.isEmpty() || SourceReader.mentionsAny(text, typeNames)));
    }

    /**
     * The files the project's types named after the lock-using files extend: their methods run on those
     * objects (an inherited {@code exec(sql)} on an inherited connection field), so they are analysed too.
     *
     * @param slots the files that name an advisory function
     * @return the texts of the super classes' files not taking part yet, by slot
     */
    private Map<Integer, SourceFile> superclasses(Set<Integer> slots) {
        Set<String> names = new TreeSet<>();
        for (int slot : slots) {
            for (TypeDeclaration<?> t : index.types(typeName(files.get(slot)))) {
                if (t instanceof ClassOrInterfaceDeclaration c) {
                    c.getExtendedTypes().forEach(x -> names.add(x.getNameAsString()));
                }
            }
        }
        return read(unreadOfTypes(names), text -> true);
    }

    /**
     * The files of the types the lock-using files refer to that run a callback in a framework transaction
     * ({@code jdbi.inTransaction(work)}, {@code transactionTemplate.execute(cb)}): a project wrapper whose callers
     * pass the lambda that locks, which runs in that transaction (core.flow.CallingContexts). Their text need not
     * name an advisory function. And those that borrow a connection and prepare statements on it: a query helper
     * ({@code db.fetchOne(sql, ..)}) whose own connection decides where the lock SQL passed to it runs
     * ({@code SqlWrappers.OwnConnection}, read from the outline, which keeps such bodies). And those with an accessor
     * of a connection they keep in a field ({@code db.connection().prepareStatement(..)}): its calls return that one
     * session.
     *
     * @param texts the lock-using files, by slot
     * @return the texts of those files not taking part yet, by slot
     */
    private Map<Integer, SourceFile> transactionWrappers(Map<Integer, SourceFile> texts) {
        Set<String> names = new TreeSet<>();
        for (int slot : texts.keySet()) {
            names.addAll(JavaOutline.referencedTypeNames(texts.get(slot).text()));
            // and the types its code constructs (a query helper made in a local: new Db(dataSource))
            Matcher made = CONSTRUCTED.matcher(texts.get(slot).text());
            while (made.find()) {
                names.add(made.group(1));
            }
            for (TypeDeclaration<?> t : index.types(typeName(files.get(slot)))) {
                // the types of its fields: the objects its code calls (a wrapper injected into a field)
                t.getFields()
                        .forEach(f -> f.getVariables()
                                .forEach(v -> names.add(simpleName(v.getType().asString()))));
            }
        }
        Set<String> transactional = API.names(Role.RUNS_IN_TRANSACTION);
        return read(
                unreadOfTypes(names),
                text -> SourceReader.callsAny(text, transactional)
                        || JavaOutline.runsStatementsOnOwnConnection(text)
                        || (CONNECTION_ACCESSOR.matcher(text).find()
                                && CONNECTION_FIELD.matcher(text).find()));
    }

    /**
     * Joins the files that use an annotation an {@code @Around} advice of a member selects, and the files that call
     * the methods it marks (the annotated methods run inside the advice, and their callers' calls of them too), for
     * the annotations not joined yet.
     */
    private void joinAdvised(SortedMap<Integer, FileFacts> facts) {
        Set<String> annotations = new TreeSet<>();
        members.values().forEach(m -> annotations.addAll(AspectAdvice.pointcutAnnotations(m.text())));
        annotations.removeAll(aspectsJoined);
        if (annotations.isEmpty()) {
            return;
        }
        aspectsJoined.addAll(annotations);
        Map<Integer, SourceFile> advised = advisedByAspects(annotations);
        join(advised, facts);
        Set<String> methods = new TreeSet<>();
        Set<String> types = new TreeSet<>();
        advised.forEach((slot, file) -> {
            methods.addAll(AspectAdvice.annotatedMethodNames(file.text(), annotations));
            types.add(typeName(files.get(slot)));
        });
        join(callers(methods, types), facts);
    }

    /**
     * The files that use an annotation an {@code @Around} advice of a member selects ({@code @DistributedLock} over
     * the aspect that takes the lock, core.flow.AspectAdvice): the annotated methods run inside the advice, and their
     * self-calls skip it. Their text need not name an advisory function. Every file not taking part yet is read
     * when, and only when, a member's text declares such advice (a text-level test: a file read too many costs a
     * read, the analysis decides).
     *
     * @param annotations the simple names of the annotations the members' pointcuts select
     * @return the texts of the files that write {@code @Name} of one of those annotations, by slot
     */
    private Map<Integer, SourceFile> advisedByAspects(Set<String> annotations) {
        Pattern used = Pattern.compile("@(?:[\\w.]+\\.)?(?:"
                + annotations.stream().map(Pattern::quote).collect(Collectors.joining("|"))
                + ")\\b");
        List<Integer> unread = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            DiscoveredFile f = files.get(i);
            if (ruledOut.contains(i) && !members.containsKey(i) && !tasks.isSkipped(f.relativePath())) {
                unread.add(i);
            }
        }
        return read(unread, text -> used.matcher(text).find());
    }

    /** @return the slots, sorted, of the Java files named for one of the types that are not taking part yet */
    private List<Integer> unreadOfTypes(Set<String> names) {
        List<Integer> unread = new ArrayList<>();
        for (String name : names) {
            for (DiscoveredFile f : javaByTypeName.getOrDefault(name, List.of())) {
                int i = files.indexOf(f);
                if (i >= 0 && ruledOut.contains(i) && !members.containsKey(i) && !tasks.isSkipped(f.relativePath())) {
                    unread.add(i);
                }
            }
        }
        Collections.sort(unread);
        return unread;
    }

    /** @return a type as a file would be named for it: {@code TxRunner} of {@code com.x.TxRunner<T>} */
    private static String simpleName(String type) {
        int lt = type.indexOf('<');
        String raw = lt < 0 ? type : type.substring(0, lt);
        return raw.substring(raw.lastIndexOf('.') + 1);
    }

    /** @return the texts of those files whose text passes {@code wanted}, by slot, their hashes recorded */
    private Map<Integer, SourceFile> read(List<Integer> unread, Predicate<String> wanted) {
        List<SourceReader.Read> read = tasks.map(unread, files::get, i -> reader.read(files.get(i), wanted));
        Map<Integer, SourceFile> out = new TreeMap<>();
        for (int k = 0; k < unread.size(); k++) {
            SourceReader.Read r = read.get(k);
            if (r != null && r.sha256() != null) {
                hashes.put(files.get(unread.get(k)).relativePath(), r.sha256());
            }
            if (r != null && r.staged() instanceof Staged.Text t) {
                out.put(unread.get(k), t.file());
                if (t.lossy()) {
                    lossy.add(unread.get(k));
                }
                if (r.sha256() != null) {
                    hashes.put(files.get(unread.get(k)).relativePath(), r.sha256());
                    fileHashes.put(files.get(unread.get(k)).relativePath(), r.sha256());
                }
            }
        }
        return out;
    }

    /**
     * The types a call of a helper may be written on: each helper's declaring type, its supertypes
     * and the types that extend or implement it, as the index knows them.
     */
    private Set<String> helperTypeNames(HelperRegistry registry) {
        Set<String> declared = new TreeSet<>();
        for (HelperSummary s : registry.summaries()) {
            declared.add(s.typeName());
        }
        return relatedTypeNames(declared);
    }

    /**
     * The methods of the indexed types (the candidates' and those they refer to) that return text and
     * whose body names an advisory function: they build or hold lock SQL for their callers.
     *
     * @return declaring type name to those methods' names, sorted; empty when there are none
     */
    private SortedMap<String, Set<String>> sqlProviders() {
        SortedMap<String, Set<String>> out = new TreeMap<>();
        for (TypeDeclaration<?> t : index.allTypes()) {
            for (MethodDeclaration m : t.getMethods()) {
                String type = m.getType().asString();
                if ((type.equals("String") || type.equals("java.lang.String") || type.equals("CharSequence"))
                        && m.getBody().isPresent()
                        && m.getBody().get().toString().toLowerCase(Locale.ROOT).contains("advisory")) {
                    out.computeIfAbsent(t.getNameAsString(), k -> new TreeSet<>())
                            .add(m.getNameAsString());
                }
            }
        }
        return out;
    }

    /**
     * @param slots the files that name an advisory function
     * @return for each abstract class or interface those files are named after, the names of its methods without
     *     a body; and for each indexed interface or abstract class such a file's type directly extends or
     *     implements, the names of its methods without a body that the type implements (a default method of
     *     {@code LockProvider} calling {@code lock(key)} runs {@code PostgresLockProvider.lock}); empty when there
     *     are none
     */
    private SortedMap<String, Set<String>> abstractMethods(Set<Integer> slots) {
        SortedMap<String, Set<String>> out = new TreeMap<>();
        for (int slot : slots) {
            String name = typeName(files.get(slot));
            for (TypeDeclaration<?> t : index.types(name)) {
                if (!(t instanceof ClassOrInterfaceDeclaration c)) {
                    continue;
                }
                if (c.isInterface() || c.isAbstract()) {
                    out.computeIfAbsent(name, k -> new TreeSet<>()).addAll(abstractNames(c));
                }
                Set<String> implemented = new TreeSet<>();
                c.getMethods().stream()
                        .filter(m -> m.getBody().isPresent() && !m.isStatic())
                        .forEach(m -> implemented.add(m.getNameAsString()));
                List<String> supers = new ArrayList<>();
                c.getExtendedTypes().forEach(x -> supers.add(x.getNameAsString()));
                c.getImplementedTypes().forEach(x -> supers.add(x.getNameAsString()));
                for (String superName : supers) {
                    for (TypeDeclaration<?> s : index.types(superName)) {
                        if (s instanceof ClassOrInterfaceDeclaration sc && (sc.isInterface() || sc.isAbstract())) {
                            Set<String> names = new TreeSet<>(abstractNames(sc));
                            names.retainAll(implemented);
                            if (!names.isEmpty()) {
                                out.computeIfAbsent(superName, k -> new TreeSet<>())
                                        .addAll(names);
                            }
                        }
                    }
                }
            }
        }
        out.values().removeIf(Set::isEmpty);
        return out;
    }

    /** @return the names of a type's instance methods without a body */
    private static Set<String> abstractNames(ClassOrInterfaceDeclaration c) {
        Set<String> names = new TreeSet<>();
        for (MethodDeclaration m : c.getMethods()) {
            if (m.getBody().isEmpty() && !m.isStatic()) {
                names.add(m.getNameAsString());
            }
        }
        return names;
    }

    /**
     * @param declared type names
     * @return those names, their direct super types and the indexed types that extend or implement one
     */
    private Set<String> relatedTypeNames(Set<String> declared) {
        Set<String> out = new TreeSet<>(declared);
        for (String type : declared) {
            for (TypeDeclaration<?> t : index.types(type)) {
                if (t instanceof ClassOrInterfaceDeclaration c) {
                    c.getExtendedTypes().forEach(x -> out.add(x.getNameAsString()));
                    c.getImplementedTypes().forEach(x -> out.add(x.getNameAsString()));
                }
            }
        }
        for (TypeDeclaration<?> t : index.allTypes()) {
            if (t instanceof ClassOrInterfaceDeclaration c) {
                boolean sub = c.getExtendedTypes().stream().anyMatch(x -> declared.contains(x.getNameAsString()))
                        || c.getImplementedTypes().stream().anyMatch(x -> declared.contains(x.getNameAsString()));
                if (sub) {
                    out.add(c.getNameAsString());
                }
            }
        }
        return out;
    }

    /**
     * @param namespace a mapper's namespace, the qualified name of its interface
     * @return the Java file of that interface: among the files of its simple name, the first whose
     *     folders end with the namespace's package, else the first; null when there is none
     */
    private DiscoveredFile mapperInterface(String namespace) {
        String[] parts = namespace.split("\\.", -1);
        List<DiscoveredFile> named = javaByTypeName.getOrDefault(parts[parts.length - 1], List.of());
        for (DiscoveredFile f : named) {
            Path folder = f.path().getParent();
            int k = parts.length - 2;
            while (k >= 0
                    && folder != null
                    && folder.getFileName() != null
                    && folder.getFileName().toString().equals(parts[k])) {
                folder = folder.getParent();
                k--;
            }
            if (k < 0) {
                return f;
            }
        }
        return named.isEmpty() ? null : named.get(0);
    }

    /** @return a Java file's name without {@code .java}: the simple name of the type it is expected to declare */
    static String typeName(DiscoveredFile f) {
        String name = f.path().getFileName().toString();
        return name.endsWith(".java") ? name.substring(0, name.length() - 5) : name;
    }
}
