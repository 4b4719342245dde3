package io.github.pgadvisorylint.core.java;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.Problem;
import com.github.javaparser.Processor;
import com.github.javaparser.Range;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.validator.postprocessors.Java10PostProcessor;
import io.github.pgadvisorylint.core.api.ApiCatalog;
import io.github.pgadvisorylint.core.api.ApiFamily;
import io.github.pgadvisorylint.core.api.Role;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.Prefilter;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.facts.Suppression;
import io.github.pgadvisorylint.core.flow.FlowLowering;
import io.github.pgadvisorylint.core.flow.LockPaths;
import io.github.pgadvisorylint.core.flow.MethodFlow;
import io.github.pgadvisorylint.core.keys.PostgresHash;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeyPopulation;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SiteUsage;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.rule.SuppressionUse;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.sql.ReadOnlySql;
import io.github.pgadvisorylint.core.sql.SqlAnalysis;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlArgument;
import io.github.pgadvisorylint.core.sql.SqlLockCall;
import io.github.pgadvisorylint.core.sql.SqlProblem;
import io.github.pgadvisorylint.core.sql.SqlSiteUsage;
import io.github.pgadvisorylint.core.sql.SqlSites;
import io.github.pgadvisorylint.core.sql.SqlTimeouts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java front end: parses one file with JavaParser, finds the SQL it executes (string literals,
 * text blocks, {@code +} concatenations with constants, constants of the file, effectively final
 * locals) at JDBC, Spring {@code JdbcTemplate}, JPA and Spring Data call sites, hands that SQL to
 * the {@link SqlAnalyzer}, maps each lock function's position back to the file, and computes the
 * lifecycle of every acquisition while the syntax tree is still there. Thread-safe.
 */
public final class JavaFrontEnd {

    private static final ParserConfiguration.LanguageLevel LANGUAGE_LEVEL = newestLanguageLevel();

    /** Which calls take SQL text, which never do, how prepared statements run, which calls wrap tests. */
    private static final ApiCatalog API = ApiCatalog.standard();

    /** The libraries whose SQL-taking calls are recognised by name alone (the others by {@link ApiSurfaces}). */
    private static final Set<ApiFamily> BY_NAME = EnumSet.of(ApiFamily.JDBC, ApiFamily.SPRING_JDBC, ApiFamily.JPA);

    /** Annotations of MyBatis mapper methods whose value is the SQL (a String or a String[] joined by spaces). */
    private static final Set<String> MYBATIS_ANNOTATIONS = Set.of("Select", "Update", "Insert", "Delete");

    /** Annotations of JDBI SQL Object methods whose value is the SQL. */
    private static final Set<String> JDBI_ANNOTATIONS = Set.of("SqlQuery", "SqlUpdate", "SqlCall", "SqlBatch");

    /** Annotations naming a method parameter's bind name: MyBatis and Spring Data {@code @Param}, JDBI {@code @Bind}. */
    private static final Set<String> PARAM_NAME_ANNOTATIONS = Set.of("Param", "Bind");

    /** A function name without SQL text around it: {@code pg_try_advisory_lock}, {@code pg_catalog.pg_advisory_lock}. */

    /**
     * A placeholder inside SQL text: {@code ?}, {@code ?1}/{@code $1}, a named {@code :key} (not the {@code ::}
     * of a cast), or MyBatis {@code #{key}}/{@code ${key}}.
     */
    private static final Pattern PLACEHOLDER = Pattern.compile("(?<![:\\w]):[A-Za-z_]\\w*|[#$]\\{[^}]*}|[$?]\\d+|\\?");

    /**
     * What a placeholder token names: a parameter name ({@code :key}, {@code #{key,jdbcType=BIGINT}}), a
     * 1-based position ({@code $2}, {@code ?2}), or neither (a plain {@code ?}, whose position is its count
     * in the statement).
     *
     * @param name     the name, or null
     * @param position the position, or 0
     */
    private record Placeholder(String name, int position) {
        static Placeholder of(String token) {
            if (token.startsWith(":")) {
                return new Placeholder(token.substring(1), 0);
            }
            if (token.startsWith("#{") || token.startsWith("${")) {
                String inner = token.substring(2, Math.max(2, token.length() - 1));
                int comma = inner.indexOf(',');
                return new Placeholder((comma < 0 ? inner : inner.substring(0, comma)).trim(), 0);
            }
            if ((token.startsWith("$") || token.startsWith("?"))
                    && token.length() > 1
                    && Character.isDigit(token.charAt(1))) {
                return new Placeholder(null, parsePosition(token.substring(1)));
            }
            return new Placeholder(null, 0);
        }
    }

    private static final Pattern FUNCTION_NAME = Pattern.compile("\\s*[A-Za-z_][\\w.]*\\s*");

    private final SqlAnalyzer sqlAnalyzer;
    private final Set<String> configuredHelpers;
    private final Set<String> configuredPooledTypes;

    /** @param sqlAnalyzer the SQL front end to hand executed SQL to */
    public JavaFrontEnd(SqlAnalyzer sqlAnalyzer) {
        this(sqlAnalyzer, Set.of(), Set.of());
    }

    /**
     * @param sqlAnalyzer     the SQL front end to hand executed SQL to
     * @param lockHelpers     configured lock helpers whose SQL the tool cannot see (a library's): names
     *                        {@code method}, {@code Type.method} or {@code pkg.Type.method}. A call of one
     *                        takes a lock keyed by its first argument (two-int when it has two int-like
     *                        leading arguments is not guessed: one key part); the function follows the
     *                        name: {@code unlock}/{@code release} release, {@code try} try-locks,
     *                        {@code xact}/{@code transaction} is transaction-level, otherwise
     *                        {@code pg_advisory_lock}
     * @param pooledApiTypes  configured types whose calls borrow a pooled connection per call, by simple
     *                        or qualified name (RULES.md unpinned-session-lock)
     */
    public JavaFrontEnd(SqlAnalyzer sqlAnalyzer, Set<String> lockHelpers, Set<String> pooledApiTypes) {
        this.sqlAnalyzer = sqlAnalyzer;
        this.configuredHelpers = Set.copyOf(lockHelpers);
        Set<String> simple = new HashSet<>();
        for (String t : pooledApiTypes) {
            simple.add(t.substring(t.lastIndexOf('.') + 1));
        }
        this.configuredPooledTypes = Set.copyOf(simple);
    }

    /** The class of the processor that runs the language level's post-processors and validators. */
    private static final String LANGUAGE_LEVEL_PROCESSOR = ParserConfiguration.class.getName() + "$2";

    /**
     * The configuration of one parse: the newest language level's grammar and its post-processing
     * ({@code var} becomes a {@code VarType}), token ranges for exact positions, no comment
     * attribution, and none of the language level's validators. The validators reject code javac
     * rejects too (repeated modifiers, misplaced {@code var}) and took about a quarter of the parse
     * time; a linter reads code that compiles, and reads what it can of code that does not.
     *
     * @return a new configuration (JavaParser configurations are not shared between threads)
     * @throws IllegalStateException when JavaParser's processors are not as this version expects
     *     (checked by the tests, so an upgrade that changes them fails the build, not a scan)
     */
    static ParserConfiguration parserConfiguration() {
        ParserConfiguration config = new ParserConfiguration()
                .setLanguageLevel(LANGUAGE_LEVEL)
                .setStoreTokens(true)
                .setAttributeComments(false)
                .setTabSize(1);
        List<Supplier<Processor>> processors = config.getProcessors();
        int replaced = 0;
        for (int i = 0; i < processors.size(); i++) {
            if (processors.get(i).get().getClass().getName().equals(LANGUAGE_LEVEL_PROCESSOR)) {
                processors.set(i, () -> new Processor() {
                    @Override
                    public void postProcess(ParseResult<? extends Node> result, ParserConfiguration configuration) {
                        // Java 10's post-processing is every later level's too (none adds any)
                        new Java10PostProcessor().postProcess(result, configuration);
                    }
                });
                replaced++;
            }
        }
        if (replaced != 1) {
            throw new IllegalStateException(
                    "unexpected JavaParser processors: " + replaced + " language-level processors");
        }
        return config;
    }

    private static ParserConfiguration.LanguageLevel newestLanguageLevel() {
        return Arrays.stream(ParserConfiguration.LanguageLevel.values())
                .filter(l -> l.name().matches("JAVA_\\d+"))
                .max(Comparator.comparingInt(l -> Integer.parseInt(l.name().substring(5))))
                .orElse(ParserConfiguration.LanguageLevel.CURRENT);
    }

    /**
     * A parsed Java file: its syntax tree, or the facts that say why there is none.
     *
     * @param file   the decoded file
     * @param unit   the syntax tree, or null when parsing failed
     * @param failed facts with the parse problem when {@code unit} is null, else null
     */
    public record Parsed(SourceFile file, CompilationUnit unit, FileFacts failed) {}

    /**
     * @param written the decoded file
     * @return its syntax tree (over the file with its unicode escapes decoded, which {@link Parsed#file()}
     *     is then), or the located parse problem; never throws for bad input
     */
    public Parsed parse(SourceFile written) {
        // unicode escapes are decoded first, as javac does; regions still point into the file as written
        SourceFile file = UnicodeEscapes.decode(written);
        int tooDeep = GenericNesting.pastLimit(file.text());
        if (tooDeep >= 0) {
            return new Parsed(
                    file,
                    null,
                    FileFacts.failed(
                            file.path(),
                            List.of(new Notification(
                                    Severity.WARNING,
                                    "java-too-deep",
                                    "type arguments nested more than " + GenericNesting.LIMIT
                                            + " levels deep: JavaParser"
                                            + " would take time quadratic in the depth; skipped",
                                    file.region(tooDeep, tooDeep + 1)))));
        }
        ParserConfiguration config = parserConfiguration();
        ParseResult<CompilationUnit> result;
        try {
            result = new JavaParser(config).parse(file.text());
        } catch (StackOverflowError e) {
            return new Parsed(
                    file,
                    null,
                    FileFacts.failed(
                            file.path(),
                            List.of(new Notification(
                                    Severity.WARNING,
                                    "java-too-deep",
                                    "Java file nests too deeply to parse (e.g. a concatenation of thousands of terms); skipped",
                                    SourceRegion.line(file.path(), 1)))));
        }
        if (!result.isSuccessful() || result.getResult().isEmpty()) {
            return new Parsed(
                    file, null, FileFacts.failed(file.path(), List.of(parseProblem(file, result.getProblems()))));
        }
        CompilationUnit unit = result.getResult().get();
        dropTokens(unit);
        return new Parsed(file, unit, null);
    }

    /**
     * Parses a file's {@link JavaOutline}: its types, supertypes, fields, enums and method signatures,
     * with the bodies of most methods empty, at a fraction of the cost of {@link #parse}. Every node
     * has the range of the same node in the whole file. What another file may need of this one (its
     * constants and types, see {@link ConstantIndex}) is in the outline.
     *
     * @param written the decoded file as written (unicode escapes are decoded here, as in {@link #parse})
     * @return the outline's syntax tree, or the located parse problem; never throws for bad input
     */
    public Parsed parseOutline(SourceFile written) {
        return outline(written).parsed();
    }

    /**
     * An outline's parse and the outline it parsed.
     *
     * @param parsed  as {@link #parseOutline} gives it
     * @param outline the outline of the decoded text, or null when none was made (the file nests type
     *                arguments too deeply to be read)
     */
    public record OutlineParse(Parsed parsed, JavaOutline.Outline outline) {}

    /**
     * {@link #parseOutline}, also giving the outline, for a caller that needs its text (a digest of
     * it) without making it again.
     *
     * @param written the decoded file as written
     * @return the parse and the outline; never throws for bad input
     */
    public OutlineParse outline(SourceFile written) {
        SourceFile file = UnicodeEscapes.decode(written);
        if (GenericNesting.pastLimit(file.text()) >= 0) {
            return new OutlineParse(parse(written), null); // says where and why it is skipped
        }
        JavaOutline.Outline outline = JavaOutline.of(file.text());
        ParseResult<CompilationUnit> result;
        try {
            result = new JavaParser(parserConfiguration()).parse(outline.text());
        } catch (StackOverflowError e) {
            return new OutlineParse(parse(written), outline); // the whole file says where and why
        }
        if (!result.isSuccessful() || result.getResult().isEmpty()) {
            // the whole file's parse problem has the right position
            return new OutlineParse(parse(written), outline);
        }
        CompilationUnit unit = result.getResult().get();
        // the outline's lines and columns, and the decoded text's (the whole parse gives positions in the
        // decoded text; file.region maps them to the file as written)
        SourceFile outlineText = new SourceFile(file.path(), outline.text());
        SourceFile decoded = new SourceFile(file.path(), file.text());
        unit.walk(n -> {
            Range range = n.getRange().orElse(null);
            n.setTokenRange(null);
            if (range != null) {
                int begin = outline.fileOffset(outlineText.offsetOf(range.begin.line, range.begin.column));
                int end = outline.fileOffset(outlineText.offsetOf(range.end.line, range.end.column));
                n.setRange(new Range(
                        new Position(decoded.lineOf(begin), decoded.columnOf(begin)),
                        new Position(decoded.lineOf(end), decoded.columnOf(end))));
            } else {
                n.setRange(null);
            }
        });
        return new OutlineParse(new Parsed(file, unit, null), outline);
    }

    /**
     * Lets go of a tree's tokens, keeping every node's range. JavaParser computes a node's range from
     * its tokens, so it must store them while it parses; but the tokens (every word, space and
     * comment of the file, each with a range of its own, linked both ways) take about two thirds of a
     * tree's memory, and nothing after the parse reads them.
     */
    private static void dropTokens(CompilationUnit unit) {
        unit.walk(n -> {
            Range range = n.getRange().orElse(null);
            n.setTokenRange(null);
            n.setRange(range);
        });
    }

    /**
     * @param parsed a parsed file
     * @param index  constants of every parsed file of the analysis, for keys and SQL declared elsewhere
     * @return its lock sites, lifecycles, problems and suppressions; never throws for bad input
     */
    public FileFacts extract(Parsed parsed, ConstantIndex index) {
        return extract(parsed, index, HelperRegistry.EMPTY);
    }

    /**
     * @param parsed  a parsed file
     * @param index   constants of every parsed file of the analysis
     * @param helpers the lock helpers known so far: each call of one becomes a lock site at the call
     * @return its lock sites, lifecycles, problems, suppressions and the helpers it declares; never throws
     */
    public FileFacts extract(Parsed parsed, ConstantIndex index, HelperRegistry helpers) {
        if (parsed.unit() == null) {
            return parsed.failed();
        }
        try {
            return JavaScopes.withSymbolTables(
                    index, () -> new FileScan(parsed.file(), parsed.unit(), new KeyEvaluator(index), helpers).run());
        } catch (StackOverflowError e) {
            return FileFacts.failed(
                    parsed.file().path(),
                    List.of(new Notification(
                            Severity.WARNING,
                            "java-too-deep",
                            "Java file nests too deeply to analyse; skipped",
                            SourceRegion.line(parsed.file().path(), 1))));
        }
    }

    /**
     * Parses and extracts one file on its own: constants of other files are not seen.
     *
     * @param file the decoded file
     * @return its facts; never throws for bad input
     */
    public FileFacts analyze(SourceFile file) {
        Parsed parsed = parse(file);
        if (parsed.unit() == null) {
            return parsed.failed();
        }
        ConstantIndex index = new ConstantIndex();
        index.add(parsed.unit(), parsed.file());
        return extract(parsed, index);
    }

    /**
     * Simple names of the types a file refers to where a constant may come from: qualifiers of field
     * accesses ({@code LockKeys.X}), imported and statically imported types, and supertypes.
     *
     * @param unit a parsed file
     * @return the names, sorted
     */
    public static SortedSet<String> referencedTypeNames(CompilationUnit unit) {
        SortedSet<String> out = new TreeSet<>();
        for (var imp : unit.getImports()) {
            String[] parts = imp.getNameAsString().split("\\.", -1);
            for (String p : parts) {
                if (!p.isEmpty() && Character.isUpperCase(p.charAt(0))) {
                    out.add(p);
                    break;
                }
            }
        }
        for (FieldAccessExpr f : unit.findAll(FieldAccessExpr.class)) {
            // Type.NAME, and pkg.Type.NAME or Outer.Inner.NAME (the type written with its package or outer type)
            String scope = f.getScope() instanceof NameExpr n
                    ? n.getNameAsString()
                    : f.getScope() instanceof FieldAccessExpr q ? q.getNameAsString() : "";
            if (!scope.isEmpty() && Character.isUpperCase(scope.charAt(0))) {
                out.add(scope);
            }
        }
        for (ClassOrInterfaceDeclaration c : unit.findAll(ClassOrInterfaceDeclaration.class)) {
            c.getExtendedTypes().forEach(t -> out.add(t.getNameAsString()));
            c.getImplementedTypes().forEach(t -> out.add(t.getNameAsString()));
        }
        return out;
    }

    /**
     * The names a file calls: method names of its method calls and simple type names of its
     * {@code new} expressions; a {@link HelperRegistry} affects a file's facts only through these
     * (compare {@link HelperRegistry#callNames()}).
     *
     * @param unit a parsed file
     * @return the names
     */
    public static Set<String> calledNames(CompilationUnit unit) {
        Set<String> out = new HashSet<>();
        unit.walk(n -> {
            if (n instanceof MethodCallExpr m) {
                out.add(m.getNameAsString());
            } else if (n instanceof ObjectCreationExpr o) {
                out.add(o.getType().getNameAsString());
            }
        });
        return out;
    }

    /** The position in a JavaParser lexical error: {@code Lexical error at line 2, column 42.} */
    private static final Pattern LEXICAL_ERROR_AT =
            Pattern.compile("Lexical error at line (\\d{1,9}), column (\\d{1,9})");

    private static Notification parseProblem(SourceFile file, List<Problem> problems) {
        if (problems.isEmpty()) {
            return new Notification(
                    Severity.WARNING,
                    "java-parse-error",
                    "Java file could not be parsed; skipped",
                    SourceRegion.line(file.path(), 1));
        }
        Problem p = problems.get(0);
        int line = p.getLocation()
                .flatMap(l -> l.getBegin().getRange())
                .map(r -> r.begin.line)
                .orElse(1);
        int col = p.getLocation()
                .flatMap(l -> l.getBegin().getRange())
                .map(r -> r.begin.column)
                .orElse(1);
        String msg = p.getMessage().lines().findFirst().orElse("syntax error");
        // lexical errors (an unterminated string or comment) carry their position only in the message
        Matcher lexical = LEXICAL_ERROR_AT.matcher(msg);
        if (p.getLocation().isEmpty() && lexical.find()) {
            line = Integer.parseInt(lexical.group(1));
            col = Math.max(1, Integer.parseInt(lexical.group(2)));
        }
        if (msg.length() > 200) {
            msg = msg.substring(0, 200) + "…";
        }
        int offset = file.offsetOf(line, col);
        return new Notification(
                Severity.WARNING,
                "java-parse-error",
                "Java file could not be parsed; skipped (" + msg
                        + (problems.size() > 1 ? "; " + (problems.size() - 1) + " more problem(s)" : "") + ")",
                file.region(offset, offset));
    }

    /**
     * SQL found in the file, with how it is executed.
     *
     * @param text        the SQL with offsets and holes
     * @param anchor      the expression written where the SQL is used (the region when it came through a constant)
     * @param api         how it is executed
     * @param call        the call that receives the SQL (for parameter binding), or null
     * @param contextNode the node that says which method the site belongs to
     * @param exec        the call that runs the SQL (transaction and connection context, lifecycle), or null;
     *                    {@code call} unless the statement is prepared in one place and executed in another
     * @param field       for a statement prepared into a field, the field's name, else null
     * @param wrapper     for the call of a user-written JDBC wrapper, the wrapper (it binds the parameters), else null
     */
    private record Candidate(
            JavaText text,
            Node anchor,
            ExecutionApi api,
            MethodCallExpr call,
            Node contextNode,
            MethodCallExpr exec,
            String field,
            SqlWrappers.Wrapper wrapper) {
        Candidate(JavaText text, Node anchor, ExecutionApi api, MethodCallExpr call, Node contextNode) {
            this(text, anchor, api, call, contextNode, call, null, null);
        }

        Candidate(
                JavaText text,
                Node anchor,
                ExecutionApi api,
                MethodCallExpr call,
                Node contextNode,
                MethodCallExpr exec,
                String field) {
            this(text, anchor, api, call, contextNode, exec, field, null);
        }
    }

    /** The state of one file's analysis. */
    private final class FileScan {
        private final SourceFile file;
        private final CompilationUnit unit;
        private final StringEvaluator strings;
        private final List<Candidate> candidates = new ArrayList<>();
        private final List<LockSite> sites = new ArrayList<>();
        /** By identity: a site's record hash walks its key, context and SQL; never iterated. */
        private final Map<LockSite, Node> siteNodes = new IdentityHashMap<>();
        /**
         * Acquisitions whose SQL string runs more SQL after the lock as one transaction (further statements, a
         * {@code DO} block): a failure of the lock fails that SQL too, so nothing after the call is work done
         * without it.
         */
        private final Set<String> workInItsStatement = new HashSet<>();

        private final Set<Notification> notifications = new LinkedHashSet<>();
        private final Map<String, SqlAnalysis> analyses = new HashMap<>();
        private final KeyEvaluator keys;
        private final ExecutionContextAnalyzer executionContexts;
        private final HelperRegistry helpers;
        private final Map<LockSite, HelperSummary> helperOf = new HashMap<>();
        private final Map<LockSite, HelperSummary.Op> helperOps = new HashMap<>();
        private final Map<LockSite, LockSite> inners = new HashMap<>();
        private final Map<LockSite, SiteUsage> sqlUsages = new HashMap<>();
        private final SqlWrappers sqlWrappers;
        private final Map<LockSite, SqlWrappers.Wrapper> wrapped = new HashMap<>();
        /** Wrappers of other files' types, by declaration (identity): found on first use. */
        private final Map<TypeDeclaration<?>, SqlWrappers> otherWrappers = new IdentityHashMap<>();
        /** The types this file declares, by simple name. */
        private final Map<String, List<TypeDeclaration<?>>> ownTypes = new HashMap<>();

        private final Map<LockSite, Map<String, Boolean>> siteFlags = new HashMap<>();

        FileScan(SourceFile file, CompilationUnit unit, KeyEvaluator keys, HelperRegistry helpers) {
            this.file = file;
            this.unit = unit;
            this.strings = new StringEvaluator(file, unit, keys.project);
            this.sqlWrappers = new SqlWrappers(unit);
            for (TypeDeclaration<?> t : unit.findAll(TypeDeclaration.class)) {
                ownTypes.computeIfAbsent(t.getNameAsString(), k -> new ArrayList<>())
                        .add(t);
            }
            this.keys = keys;
            this.helpers = helpers;
            this.executionContexts = new ExecutionContextAnalyzer(file, configuredPooledTypes);
        }

        /**
         * A wrapper of another file's type called on a receiver declared as that type ({@code db.fetchOne(sql, ..)}
         * with {@code Database db}): the project's unique type of that simple name, read from its outline (which
         * keeps a query helper's body, {@link JavaOutline}), when it borrows its own connection.
         *
         * @return the wrapper, or null
         */
        private SqlWrappers.Wrapper otherFileWrapper(MethodCallExpr call) {
            if (call.getScope().isEmpty()
                    || call.getScope().get() instanceof ThisExpr
                    || call.getScope().get() instanceof SuperExpr) {
                return inheritedWrapper(call);
            }
            Expression scope = call.getScope().get();
            String type = scope instanceof ObjectCreationExpr made
                    ? made.getType().getNameAsString() // new Db(dataSource).fetchOne(sql, ..)
                    : JavaScopes.receiverTypeName(scope);
            if (type == null) {
                return null;
            }
            // a helper class of this file (nested, or a second top-level class), else the project's
            List<TypeDeclaration<?>> here = ownTypes.getOrDefault(type, List.of());
            TypeDeclaration<?> declaration =
                    here.size() == 1 ? here.get(0) : here.isEmpty() ? keys.project.type(type) : null;
            if (declaration == null) {
                return null;
            }
            return ownConnectionWrapper(declaration, call);
        }

        /** @return the wrapper of that type the call resolves to, when it opens its own connection; else null */
        private SqlWrappers.Wrapper ownConnectionWrapper(TypeDeclaration<?> declaration, MethodCallExpr call) {
            SqlWrappers.Wrapper w =
                    otherWrappers.computeIfAbsent(declaration, SqlWrappers::new).resolveOnReceiver(call);
            return w != null && w.own() != null ? w : null;
        }

        /**
         * A wrapper the enclosing class inherits from a project superclass ({@code fetchOne(sql, ..)} declared in
         * {@code AbstractDao} of another file), called on the object itself, when the class declares no method of
         * that name.
         *
         * @return the wrapper, or null
         */
        private SqlWrappers.Wrapper inheritedWrapper(MethodCallExpr call) {
            ClassOrInterfaceDeclaration type =
                    call.findAncestor(ClassOrInterfaceDeclaration.class).orElse(null);
            if (type == null || !type.getMethodsByName(call.getNameAsString()).isEmpty()) {
                return null;
            }
            for (ClassOrInterfaceType parent : type.getExtendedTypes()) {
                TypeDeclaration<?> declaration = keys.project.type(parent.getNameAsString());
                SqlWrappers.Wrapper w = declaration == null ? null : ownConnectionWrapper(declaration, call);
                if (w != null) {
                    return w;
                }
            }
            return null;
        }

        FileFacts run() {
            for (MethodCallExpr call : JavaScopes.calls(unit)) {
                collectCall(call);
            }
            for (AnnotationExpr a : unit.findAll(AnnotationExpr.class)) {
                collectAnnotation(a);
            }
            collectDeclarations();
            for (Candidate c : candidates) {
                toSites(c);
            }
            if (!helpers.isEmpty() || !configuredHelpers.isEmpty()) {
                for (Node n :
                        unit.findAll(Node.class, x -> x instanceof MethodCallExpr || x instanceof ObjectCreationExpr)) {
                    collectHelperCall(n);
                }
            }
            var lifecycles = new LifecycleAnalyzer(file, siteNodes, helperOf, helperOps).analyze(sites);
            var usages = new SiteUsageAnalyzer(file, strings, siteNodes, sqlUsages, lifecycles, helperOf, wrapped)
                    .analyze(sites);
            LockOrderAnalyzer.Result order = new LockOrderAnalyzer(file).analyze(sites, siteNodes, lifecycles);
            List<Notification> notes = new ArrayList<>(notifications);
            for (Node method : order.overBound()) {
                notes.add(new Notification(
                        Severity.WARNING,
                        LockPaths.METHOD_BUDGET,
                        "the lock-order analysis left out part of " + callableName(method) + ": it holds more than "
                                + LockOrderAnalyzer.MAX_EDGES_PER_METHOD + " pairs of locks at once, or its pairs"
                                + " need more than " + LockOrderAnalyzer.MAX_STEPS_PER_METHOD + " steps; lock-order"
                                + " findings through its later locks are not reported",
                        method instanceof CallableDeclaration<?> c ? nodeRegion(c.getName()) : nodeRegion(method)));
            }
            notes.sort(Comparator.naturalOrder());
            var hazards = new LockHazardAnalyzer(file, siteNodes).analyze(sites, workInItsStatement);
            return new FileFacts(
                    file.path(),
                    sites,
                    lifecycles,
                    notes,
                    suppressions(),
                    HelperSites.summarize(sites, siteNodes, lifecycles, inners, siteFlags),
                    order.edges(),
                    order.loops(),
                    usages,
                    flows(),
                    hazards);
        }

        /** @return {@code Type.method/arity} of a callable, as the lock-state analysis names it; else "an initializer" */
        private static String callableName(Node method) {
            if (method instanceof CallableDeclaration<?> c) {
                String type = c.findAncestor(TypeDeclaration.class)
                        .map(t -> ((TypeDeclaration<?>) t).getNameAsString())
                        .orElse("?");
                return type + "." + c.getNameAsString() + "/"
                        + c.getParameters().size();
            }
            return "an initializer";
        }

        /** @return the file's method graphs, lowered with the lock sites at the calls that execute them */
        private List<MethodFlow> flows() {
            IdentityHashMap<Node, List<String>> byNode = new IdentityHashMap<>();
            Set<Node> helperCalls = Collections.newSetFromMap(new IdentityHashMap<>());
            for (LockSite site : sites) {
                Node n = siteNodes.get(site);
                if (n != null) {
                    for (Node at : executions(site, n)) {
                        byNode.computeIfAbsent(at, k -> new ArrayList<>()).add(site.id());
                        if (site.viaHelper()) {
                            helperCalls.add(at);
                        }
                    }
                }
            }
            return FlowLowering.lower(
                    unit,
                    byNode,
                    helperCalls,
                    SpringTransactions::flowModifiers,
                    this::nodeRegion,
                    notifications::add,
                    JavaScopes::inheritedFieldType,
                    ReadOnlySql::readsOnly,
                    JavaScopes::cannotFail);
        }

        /**
         * Where a site's SQL runs in the method's control flow: for a statement prepared into a local
         * ({@code PreparedStatement unlock = c.prepareStatement(UNLOCK)}, also a try resource) and executed
         * later, the calls that execute it ({@code unlock.execute()}, in a {@code finally} or a retry loop);
         * preparing takes and releases nothing. Otherwise the site's own node.
         */
        private List<Node> executions(LockSite site, Node n) {
            if ((site.api() != ExecutionApi.JDBC_PREPARED_STATEMENT
                            && site.api() != ExecutionApi.JDBC_CALLABLE_STATEMENT)
                    || !(n instanceof MethodCallExpr prepare)
                    || !prepare.getNameAsString().startsWith("prepare")
                    || !(prepare.getParentNode().orElse(null) instanceof VariableDeclarator v)
                    || JavaScopes.reassigned(v)) {
                return List.of(n);
            }
            String name = v.getNameAsString();
            List<Node> out = new ArrayList<>();
            for (MethodCallExpr call : SiteUsageAnalyzer.statementExecutions(prepare)) {
                if (call.getScope().orElse(null) instanceof NameExpr receiver
                        && JavaScopes.local(name, receiver).filter(d -> d == v).isPresent()) {
                    out.add(call); // the same local, not one of the same name declared later
                }
            }
            return out.isEmpty() ? List.of(n) : out;
        }

        /** A call of a known lock helper becomes one lock site per operation of the helper, keyed by the call's arguments. */
        private void collectHelperCall(Node call) {
            String name = call instanceof MethodCallExpr m ? m.getNameAsString() : "<init>";
            List<Expression> args =
                    call instanceof MethodCallExpr m ? m.getArguments() : ((ObjectCreationExpr) call).getArguments();
            List<String> receiver = HelperSites.receiverTypes(call);
            if (HelperSites.tooCommonForNameOnly(name, receiver)
                    || (call instanceof MethodCallExpr m && isTestWrapped(m))) {
                return;
            }
            Optional<HelperSummary> found = helpers.resolve(receiver, name, args.size());
            if (found.isEmpty()) {
                configuredHelperCall(call, name, args, receiver);
                return;
            }
            if (HelperSites.insideHelper(call, found.get())) {
                return;
            }
            HelperSummary summary = found.get();
            if (stringAsKey(summary, args)) {
                return; // an overload taking a name, not this key-taking helper: advisory keys are never strings
            }
            Node nameNode = call instanceof MethodCallExpr m ? m.getName() : ((ObjectCreationExpr) call).getType();
            SourceRegion region = nodeRegion(nameNode);
            String receiverText = call instanceof MethodCallExpr m
                    ? m.getScope()
                            .map(Node::toString)
                            .map(JavaFrontEnd::abbreviate)
                            .orElse(null)
                    : null;
            String type = call.findAncestor(TypeDeclaration.class)
                    .map(TypeDeclaration::getNameAsString)
                    .orElse("");
            JavaContext context = new JavaContext(
                    type,
                    methodName(call),
                    (receiverText == null
                            ? (name.equals("<init>") ? "new " + summary.typeName() : name)
                            : receiverText + "." + name),
                    receiverText,
                    null);
            for (HelperSummary.Op op : summary.ops()) {
                if (contradicted(op, args)) {
                    continue; // built from a flag this call passes the other value of
                }
                List<KeyPart> parts = new ArrayList<>();
                for (HelperSummary.KeySource k : op.parts()) {
                    if (k.parameter() >= 0 && k.parameter() < args.size()) {
                        KeyPart v = keys.evaluate(args.get(k.parameter()), file);
                        parts.add(
                                v.isKnown()
                                        ? v
                                        : new KeyPart(
                                                KeyPart.Kind.PARAMETER.equals(v.kind())
                                                        ? v.kind()
                                                        : KeyPart.Kind.UNKNOWN,
                                                null,
                                                v.expression(),
                                                null,
                                                null,
                                                v.hash()));
                    } else {
                        parts.add(k.fixed() != null ? k.fixed() : KeyPart.of(KeyPart.Kind.UNKNOWN, "?"));
                    }
                }
                LockKey key = new LockKey(op.inner().key().space(), parts);
                // the declaration region of a helper call is the helper's own SQL site
                LockSite site = new LockSite(
                        file.path() + "#" + sites.size(),
                        op.function(),
                        key,
                        region,
                        op.inner().region(),
                        Language.JAVA,
                        ExecutionApi.LOCK_HELPER,
                        op.inner().sql(),
                        context,
                        declaredStatement(op.inner())
                                ? executionContexts.atSqlObjectCall(
                                        call, executionContexts.atHelperCall(call, op.execution()))
                                : executionContexts.atHelperCall(call, op.execution()));
                sites.add(site);
                siteNodes.put(site, call);
                helperOf.put(site, summary);
                helperOps.put(site, op);
                inners.put(site, op.inner());
            }
        }

        /** @return true for SQL an annotation declares on a method ({@code @SqlQuery}), which its callers run */
        private static boolean declaredStatement(LockSite inner) {
            return inner.java() != null && inner.java().executionCall() == null;
        }

        /** Whether the call passes a constant to a flag parameter that the operation needs the other value of. */
        private boolean contradicted(HelperSummary.Op op, List<Expression> args) {
            for (Map.Entry<Integer, Boolean> flag : op.when().entrySet()) {
                Boolean passed = flag.getKey() < args.size() ? strings.constantBoolean(args.get(flag.getKey())) : null;
                if (passed != null && !passed.equals(flag.getValue())) {
                    return true;
                }
            }
            return false;
        }

        /** A call of a lock helper named in the configuration ({@code lockHelpers}): a lock site at the call. */
        private void configuredHelperCall(Node call, String name, List<Expression> args, List<String> receiver) {
            if (configuredHelpers.isEmpty() || args.isEmpty() || !(call instanceof MethodCallExpr m)) {
                return;
            }
            boolean listed = configuredHelpers.contains(name)
                    || receiver.stream()
                            .anyMatch(t -> configuredHelpers.stream()
                                    .anyMatch(h -> h.equals(t + "." + name) || h.endsWith("." + t + "." + name)));
            if (!listed) {
                return;
            }
            String lower = name.toLowerCase(Locale.ROOT);
            boolean release = lower.contains("unlock") || lower.contains("release");
            boolean xact = lower.contains("xact") || lower.contains("transaction");
            boolean attempt = lower.startsWith("try");
            AdvisoryFunction function = release
                    ? AdvisoryFunction.PG_ADVISORY_UNLOCK
                    : xact
                            ? (attempt
                                    ? AdvisoryFunction.PG_TRY_ADVISORY_XACT_LOCK
                                    : AdvisoryFunction.PG_ADVISORY_XACT_LOCK)
                            : attempt ? AdvisoryFunction.PG_TRY_ADVISORY_LOCK : AdvisoryFunction.PG_ADVISORY_LOCK;
            KeyPart part = keys.evaluate(args.get(0), file);
            LockKey key = new LockKey(KeySpace.BIGINT, List.of(part));
            String receiverText = m.getScope()
                    .map(Node::toString)
                    .map(JavaFrontEnd::abbreviate)
                    .orElse(null);
            JavaContext context = new JavaContext(
                    call.findAncestor(TypeDeclaration.class)
                            .map(TypeDeclaration::getNameAsString)
                            .orElse(""),
                    methodName(call),
                    receiverText == null ? name : receiverText + "." + name,
                    receiverText,
                    null);
            SqlContext sql =
                    new SqlContext(SqlClause.CALL, null, false, false, 0, false, "configured lock helper " + name);
            LockSite site = new LockSite(
                    file.path() + "#" + sites.size(),
                    function,
                    key,
                    nodeRegion(m.getName()),
                    null,
                    Language.JAVA,
                    ExecutionApi.LOCK_HELPER,
                    sql,
                    context,
                    ExecutionContext.UNKNOWN);
            sites.add(site);
            siteNodes.put(site, call);
        }

        /**
         * @return whether the argument is text (a literal, a {@code String} variable, a concatenation with text) or an
         *     array: never an advisory key, so a call passing it runs another overload (one taking a name, varargs)
         */
        private boolean textOrArray(Expression arg) {
            if (arg.isStringLiteralExpr() || arg.isTextBlockLiteralExpr() || arg.isArrayCreationExpr()) {
                return true;
            }
            if (arg instanceof EnclosedExpr en) {
                return textOrArray(en.getInner());
            }
            if (arg instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
                return textOrArray(b.getLeft()) || textOrArray(b.getRight());
            }
            return arg instanceof NameExpr n && "String".equals(JavaScopes.declaredType(n.getNameAsString(), arg));
        }

        /** Whether the call passes a string where the helper takes a key: another overload of the same name and arity. */
        private boolean stringAsKey(HelperSummary summary, List<Expression> args) {
            for (HelperSummary.Op op : summary.ops()) {
                for (HelperSummary.KeySource k : op.parts()) {
                    if (k.parameter() >= 0 && k.parameter() < args.size()) {
                        Expression arg = args.get(k.parameter());
                        if (textOrArray(arg)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        private SourceRegion nodeRegion(Node n) {
            int s = n.getBegin().map(p -> file.offsetOf(p.line, p.column)).orElse(0);
            int e = n.getEnd().map(p -> file.offsetOf(p.line, p.column) + 1).orElse(s);
            return file.region(s, e);
        }

        private List<Suppression> suppressions() {
            List<Suppression> out = new ArrayList<>();
            List<Suppression> comments =
                    Suppression.fromComments(file.path(), file.text().lines().toList());
            Map<Integer, Integer> statementEnds = comments.isEmpty() ? Map.of() : statementEnds();
            for (Suppression s : comments) {
                // the statement after the comment (or starting before it on its line) is covered to its end
                int end = Math.max(
                        statementEnds.getOrDefault(s.startLine(), 0), statementEnds.getOrDefault(s.startLine() + 1, 0));
                out.add(end > s.endLine() ? s.withEndLine(end) : s);
            }
            for (AnnotationExpr a : unit.findAll(AnnotationExpr.class)) {
                if (!a.getNameAsString().equals("SuppressWarnings")
                        && !a.getNameAsString().equals("java.lang.SuppressWarnings")) {
                    continue;
                }
                Node target = a.getParentNode().orElse(null);
                if (target == null
                        || target.getBegin().isEmpty()
                        || target.getEnd().isEmpty()) {
                    continue;
                }
                for (StringLiteralExpr value : a.findAll(StringLiteralExpr.class)) {
                    Set<String> ids = Suppression.parseAnnotationValue(value.asString());
                    if (ids != null) {
                        int start = value.getBegin()
                                .map(p -> file.offsetOf(p.line, p.column))
                                .orElse(0);
                        int end = value.getEnd()
                                .map(p -> file.offsetOf(p.line, p.column) + 1)
                                .orElse(start);
                        out.add(new Suppression(
                                file.path(),
                                target.getBegin().get().line,
                                target.getEnd().get().line,
                                ids,
                                "",
                                SuppressionUse.Form.ANNOTATION,
                                file.region(start, end),
                                target instanceof FieldDeclaration));
                    }
                }
            }
            return out;
        }

        /**
         * Where an ignore comment's reach ends for the statement starting on a line: a statement (or a
         * field declaration) covers every line of its own, so the lines of a text block or of a
         * concatenation it spans too, up to the line where its first nested block (a lambda's or an
         * anonymous class's body, the body of an {@code if}, a loop or a {@code try}) or switch entry
         * starts: a comment above a compound statement reaches its header, not the code inside.
         *
         * @return first line of a statement to the last line a comment before it covers (the largest
         *     when several statements start on one line)
         */
        private Map<Integer, Integer> statementEnds() {
            Map<Integer, Integer> ends = new HashMap<>();
            List<Node> statements = new ArrayList<>();
            unit.findAll(Statement.class, st -> !st.isBlockStmt()).forEach(statements::add);
            statements.addAll(unit.findAll(FieldDeclaration.class));
            for (Node n : statements) {
                if (n.getBegin().isEmpty() || n.getEnd().isEmpty()) {
                    continue;
                }
                int end = n.getEnd().get().line;
                List<Node> bodies = new ArrayList<>(n.findAll(BlockStmt.class));
                bodies.addAll(n.findAll(SwitchEntry.class));
                for (Node body : bodies) {
                    if (body != n && body.getBegin().isPresent()) {
                        end = Math.min(end, body.getBegin().get().line);
                    }
                }
                ends.merge(n.getBegin().get().line, end, Math::max);
            }
            return ends;
        }

        private void collectCall(MethodCallExpr call) {
            String name = call.getNameAsString();
            if (isTestWrapped(call)) {
                return;
            }
            if (ApiSurfaces.isJooqFunction(call)) {
                jooqFunction(call);
                return;
            }
            if (ApiSurfaces.isJooqTemplate(call)) {
                JavaText text = strings.evaluate(call.getArgument(0));
                if (text != null && mentionsAdvisory(text.text())) {
                    JavaText sql = new JavaText();
                    sql.appendSynthetic("SELECT ", JavaText.SYNTHETIC);
                    sql.append(jooqPlaceholders(text, ApiSurfaces.jooqBindings(call, 1)));
                    MethodCallExpr exec = ApiSurfaces.jooqExecutor(call);
                    candidates.add(new Candidate(
                            sql, call.getArgument(0), ExecutionApi.JOOQ, call, call, exec != null ? exec : call, null));
                }
                return;
            }
            ExecutionApi api = API.sqlTextApi(name, BY_NAME).orElse(null);
            ExecutionApi surface = call.getArguments().isNonEmpty() ? ApiSurfaces.classify(call) : null;
            if (surface != null) {
                for (JavaText alternative : advisoryTexts(call.getArgument(0))) {
                    JavaText text = surface == ExecutionApi.JOOQ
                            ? jooqPlaceholders(alternative, ApiSurfaces.jooqBindings(call, 1))
                            : alternative;
                    candidates.add(new Candidate(text, call.getArgument(0), surface, call, call));
                }
                return;
            }
            SqlWrappers.Wrapper wrapper = sqlWrappers.resolve(call);
            if (wrapper == null) {
                wrapper = otherFileWrapper(call);
            }
            if (wrapper != null) {
                // a user-written JDBC wrapper: its call with lock SQL is the site, keys bound through its arguments
                Expression sql = call.getArgument(wrapper.sqlParam());
                for (JavaText text : advisoryTexts(sql)) {
                    candidates.add(new Candidate(text, sql, wrapper.api(), call, call, call, null, wrapper));
                }
                return;
            }
            if (api != null && call.getArguments().isNonEmpty()) {
                for (JavaText text : advisoryTexts(call.getArgument(0))) {
                    if ((api == ExecutionApi.JDBC_PREPARED_STATEMENT || api == ExecutionApi.JDBC_CALLABLE_STATEMENT)
                            && preparedIntoField(text, call, api)) {
                        continue;
                    }
                    candidates.add(new Candidate(text, call.getArgument(0), refine(api, call), call, call));
                }
                return;
            }
            if (API.is(Role.TAKES_NO_SQL, name)) {
                return;
            }
            for (Expression arg : call.getArguments()) {
                if (arg.isLiteralStringValueExpr() && !arg.isStringLiteralExpr() && !arg.isTextBlockLiteralExpr()) {
                    continue;
                }
                for (JavaText text : advisoryTexts(arg)) {
                    candidates.add(new Candidate(text, arg, ExecutionApi.OTHER_CALL, call, call));
                }
            }
        }

        /**
         * Every text the SQL argument may have ({@link StringEvaluator#evaluateAll}) that mentions an
         * advisory function, in the order of their text; empty when none is known.
         */
        private List<JavaText> advisoryTexts(Expression sql) {
            List<JavaText> all = strings.evaluateAll(sql);
            if (all == null) {
                return List.of();
            }
            List<JavaText> out = new ArrayList<>();
            for (JavaText t : all) {
                if (mentionsAdvisory(t.text())) {
                    out.add(t);
                }
            }
            return out;
        }

        /**
         * jOOQ {@code DSL.function(NAME, type, args...)} with a literal or constant name: the SQL
         * {@code SELECT NAME(?, ...)} is synthesised, the name's chars mapped to where it is written and
         * each {@code ?} a hole bound to the argument inside {@code DSL.val(..)}.
         */
        private void jooqFunction(MethodCallExpr call) {
            JavaText name = strings.evaluate(call.getArgument(0));
            if (name == null || !FUNCTION_NAME.matcher(name.text()).matches() || !mentionsAdvisory(name.text())) {
                return;
            }
            JavaText sql = new JavaText();
            sql.appendSynthetic("SELECT ", JavaText.SYNTHETIC);
            sql.append(name);
            sql.appendSynthetic("(", JavaText.SYNTHETIC);
            List<Expression> args = ApiSurfaces.jooqBindings(call, 2);
            for (int i = 0; i < args.size(); i++) {
                if (i > 0) {
                    sql.appendSynthetic(", ", JavaText.SYNTHETIC);
                }
                sql.appendHole(args.get(i));
            }
            sql.appendSynthetic(")", JavaText.SYNTHETIC);
            MethodCallExpr exec = ApiSurfaces.jooqExecutor(call);
            candidates.add(new Candidate(
                    sql, call.getArgument(0), ExecutionApi.JOOQ, call, call, exec != null ? exec : call, null));
        }

        /**
         * jOOQ plain SQL: {@code {0}}-style placeholders and {@code ?} bind markers (outside quotes) become
         * holes bound to the call's bind values in order; holes already in the text stay.
         */
        private JavaText jooqPlaceholders(JavaText text, List<Expression> bindings) {
            String t = text.text();
            JavaText out = new JavaText();
            int next = 0;
            char quote = 0;
            for (int i = 0; i < t.length(); i++) {
                char ch = t.charAt(i);
                if (text.holeAt(i) != null) {
                    out.append(text, i, i + 1);
                    continue;
                }
                if (quote != 0) {
                    if (ch == quote) {
                        quote = 0;
                    }
                } else if (ch == '\'' || ch == '"') {
                    quote = ch;
                } else if (ch == '{') {
                    int close = t.indexOf('}', i);
                    String inside = close > i + 1 ? t.substring(i + 1, close) : "";
                    if (inside.matches("\\d{1,3}")) {
                        int n = Integer.parseInt(inside);
                        if (n < bindings.size()) {
                            out.appendHole(bindings.get(n));
                        } else {
                            out.append('?', text.offsetAt(i));
                        }
                        i = close;
                        continue;
                    }
                } else if (ch == '?' && (i + 1 >= t.length() || "|&-".indexOf(t.charAt(i + 1)) < 0)) {
                    if (next < bindings.size()) {
                        out.appendHole(bindings.get(next++));
                        continue;
                    }
                }
                out.append(text, i, i + 1);
            }
            return out.constantOf(text);
        }

        /**
         * A statement prepared into a field ({@code this.lockStmt = conn.prepareStatement(..)} in a
         * constructor, an initializer or a field initializer) and executed in other methods of the class:
         * one candidate per execution, keyed by the setters there.
         *
         * @return true when such executions were found and added
         */
        private boolean preparedIntoField(JavaText text, MethodCallExpr call, ExecutionApi api) {
            Node parent = call.getParentNode().orElse(null);
            while (parent instanceof CastExpr || parent instanceof EnclosedExpr) {
                parent = parent.getParentNode().orElse(null);
            }
            String field = null;
            if (parent instanceof AssignExpr as) {
                Expression target = as.getTarget();
                if (target instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
                    field = f.getNameAsString();
                } else if (target instanceof NameExpr n
                        && JavaScopes.local(n.getNameAsString(), call).isEmpty()
                        && !JavaScopes.isParameter(n.getNameAsString(), call)) {
                    field = n.getNameAsString();
                }
            } else if (parent instanceof VariableDeclarator v
                    && v.getParentNode().orElse(null) instanceof FieldDeclaration) {
                field = v.getNameAsString();
            }
            TypeDeclaration<?> type = call.findAncestor(TypeDeclaration.class).orElse(null);
            if (field == null || type == null || type.getFieldByName(field).isEmpty()) {
                return false;
            }
            Node home = JavaScopes.callableOf(call);
            String f = field;
            List<MethodCallExpr> execs = type.findAll(
                    MethodCallExpr.class,
                    m -> m.getArguments().isEmpty()
                            && API.roles("PreparedStatement", m.getNameAsString(), 0)
                                    .contains(Role.EXECUTES_SQL)
                            && m.getScope()
                                    .map(sc -> sc.toString().equals(f)
                                            || sc.toString().equals("this." + f))
                                    .orElse(false)
                            && JavaScopes.callableOf(m) != home
                            && m.findAncestor(TypeDeclaration.class).orElse(null) == type);
            if (execs.isEmpty()) {
                return false;
            }
            for (MethodCallExpr exec : execs) {
                candidates.add(new Candidate(text, call.getArgument(0), api, call, exec, exec, field));
            }
            return true;
        }

        private ExecutionApi refine(ExecutionApi api, MethodCallExpr call) {
            String receiver = call.getScope().map(Node::toString).orElse("").toLowerCase(Locale.ROOT);
            boolean template =
                    receiver.contains("template") || receiver.contains("jdbc") || receiver.contains("client");
            if (api == ExecutionApi.JDBC_STATEMENT && template && !receiver.contains("statement")) {
                return ExecutionApi.SPRING_JDBC_TEMPLATE;
            }
            String name = call.getNameAsString();
            if (api == ExecutionApi.SPRING_JDBC_TEMPLATE
                    && (name.equals("query") || name.equals("update") || name.equals("sql"))
                    && !template) {
                return ExecutionApi.OTHER_CALL;
            }
            return api;
        }

        private boolean isTestWrapped(MethodCallExpr call) {
            Optional<Expression> scope = call.getScope();
            while (scope.isPresent() && scope.get() instanceof MethodCallExpr s) {
                if (isTestWrapper(s)) {
                    return true;
                }
                scope = s.getScope();
            }
            Node n = call.getParentNode().orElse(null);
            while (n != null && !(n instanceof Statement) && !(n instanceof CallableDeclaration)) {
                if (n instanceof MethodCallExpr m && isTestWrapper(m)) {
                    return true;
                }
                n = n.getParentNode().orElse(null);
            }
            return false;
        }

        /**
         * A Mockito/AssertJ/JUnit wrapper call; {@code then} only as BDDMockito's or AssertJ's static
         * {@code then(x)}, not Reactor's {@code mono.then()} that chains a statement's execution.
         */
        private static boolean isTestWrapper(MethodCallExpr m) {
            String name = m.getNameAsString();
            if (!API.is(Role.TEST_WRAPPER, name)) {
                return false;
            }
            if (name.equals("then")) {
                Expression scope = m.getScope().orElse(null);
                return m.getArguments().size() == 1
                        && (scope == null
                                || (scope instanceof NameExpr n
                                        && Character.isUpperCase(
                                                n.getNameAsString().charAt(0))));
            }
            return true;
        }

        private void collectAnnotation(AnnotationExpr a) {
            String name = a.getNameAsString();
            String simple = name.substring(name.lastIndexOf('.') + 1);
            Node owner = a.getParentNode().orElse(a);
            if (simple.equals("Procedure") && owner instanceof MethodDeclaration m) {
                procedure(a, m);
                return;
            }
            ExecutionApi methodApi = MYBATIS_ANNOTATIONS.contains(simple)
                            && (name.startsWith("org.apache.ibatis.")
                                    || ApiSurfaces.imports(a, "org.apache.ibatis.annotations"))
                    ? ExecutionApi.MYBATIS
                    : JDBI_ANNOTATIONS.contains(simple)
                                    && (name.startsWith("org.jdbi.")
                                            || name.startsWith("org.skife.")
                                            || ApiSurfaces.imports(a, "org.jdbi.", "org.skife.jdbi."))
                            ? ExecutionApi.JDBI
                            : null;
            if (methodApi != null) {
                Expression value = memberValue(a, "value");
                JavaText text = value == null ? null : joined(value);
                if (text != null && mentionsAdvisory(text.text())) {
                    candidates.add(new Candidate(text, value, methodApi, null, owner));
                }
                return;
            }
            if (!simple.equals("Query") && !simple.equals("NativeQuery")) {
                return;
            }
            Expression value = null;
            boolean nativeQuery = simple.equals("NativeQuery");
            if (a instanceof SingleMemberAnnotationExpr s) {
                value = s.getMemberValue();
            } else if (a instanceof NormalAnnotationExpr n) {
                for (MemberValuePair p : n.getPairs()) {
                    if (p.getNameAsString().equals("value")) {
                        value = p.getValue();
                    } else if (p.getNameAsString().equals("nativeQuery")) {
                        nativeQuery = p.getValue() instanceof BooleanLiteralExpr b && b.getValue();
                    }
                }
            }
            if (value == null || !nativeQuery) {
                return;
            }
            JavaText text = strings.evaluate(value);
            if (text != null && mentionsAdvisory(text.text())) {
                candidates.add(new Candidate(
                        text,
                        value,
                        ExecutionApi.SPRING_DATA_QUERY,
                        null,
                        a.getParentNode().orElse(a)));
            }
        }

        /**
         * Spring Data {@code @Procedure("pg_try_advisory_lock")}, {@code @Procedure(procedureName = ..)} or
         * {@code (value = ..)}: the SQL {@code SELECT name(:p1, :p2)} is synthesised over the method's
         * parameters, the name mapped to where it is written.
         */
        private void procedure(AnnotationExpr a, MethodDeclaration m) {
            Expression value = memberValue(a, "value");
            if (value == null) {
                value = memberValue(a, "procedureName");
            }
            JavaText name = value == null ? null : strings.evaluate(value);
            if (name == null || !FUNCTION_NAME.matcher(name.text()).matches() || !mentionsAdvisory(name.text())) {
                return;
            }
            JavaText sql = new JavaText();
            sql.appendSynthetic("SELECT ", JavaText.SYNTHETIC);
            sql.append(name);
            sql.appendSynthetic("(", JavaText.SYNTHETIC);
            for (int i = 0; i < m.getParameters().size(); i++) {
                sql.appendSynthetic((i > 0 ? ", :" : ":") + m.getParameter(i).getNameAsString(), JavaText.SYNTHETIC);
            }
            sql.appendSynthetic(")", JavaText.SYNTHETIC);
            candidates.add(new Candidate(sql, value, ExecutionApi.SPRING_DATA_PROCEDURE, null, m));
        }

        /** The member of an annotation: {@code @A(x)} for {@code value}, or {@code @A(member = x)}. */
        private static Expression memberValue(AnnotationExpr a, String member) {
            if (a instanceof SingleMemberAnnotationExpr s) {
                return member.equals("value") ? s.getMemberValue() : null;
            }
            if (a instanceof NormalAnnotationExpr n) {
                for (MemberValuePair p : n.getPairs()) {
                    if (p.getNameAsString().equals(member)) {
                        return p.getValue();
                    }
                }
            }
            return null;
        }

        /** A String, or a String[] initializer whose elements MyBatis and JDBI join with spaces. */
        private JavaText joined(Expression value) {
            if (!(value instanceof ArrayInitializerExpr arr)) {
                return strings.evaluate(value);
            }
            JavaText out = new JavaText();
            for (int i = 0; i < arr.getValues().size(); i++) {
                JavaText part = strings.evaluate(arr.getValues().get(i));
                if (part == null) {
                    return null;
                }
                if (i > 0) {
                    out.appendSynthetic(" ", JavaText.SYNTHETIC);
                }
                out.append(part);
            }
            return out;
        }

        private void collectDeclarations() {
            Set<VariableDeclarator> used = strings.usedConstants();
            for (VariableDeclarator v : strings.constants().values().stream()
                    .sorted(Comparator.comparing(
                            v -> v.getBegin().map(p -> p.line).orElse(0)))
                    .toList()) {
                if (used.contains(v)
                        || v.getInitializer().isEmpty()
                        || !(v.getParentNode().orElse(null) instanceof FieldDeclaration)) {
                    continue;
                }
                JavaText text = strings.evaluate(v.getInitializer().get());
                if (text != null && mentionsAdvisory(text.text()) && text.constantName() == null) {
                    candidates.add(new Candidate(text, v.getInitializer().get(), ExecutionApi.DECLARATION, null, v));
                }
            }
        }

        private void toSites(Candidate c) {
            SqlAnalysis analysis = analyses.computeIfAbsent(c.text.text(), sqlAnalyzer::analyze);
            int anchorStart = c.anchor
                    .getBegin()
                    .map(p -> file.offsetOf(p.line, p.column))
                    .orElse(0);
            int anchorEnd = c.anchor
                    .getEnd()
                    .map(p -> file.offsetOf(p.line, p.column) + 1)
                    .orElse(anchorStart);
            SourceRegion anchorRegion = file.region(anchorStart, anchorEnd);
            for (SqlProblem problem : analysis.problems()) {
                int off = c.text.offsetAt(problem.offset());
                SourceRegion where =
                        off >= 0 && off >= anchorStart && off < anchorEnd ? file.region(off, off) : anchorRegion;
                notifications.add(new Notification(Severity.NOTE, "sql-parse-fallback", problem.message(), where));
            }
            JavaContext context = context(c);
            SqlTimeouts.Timeline timeline = SqlTimeouts.timeline(c.text.text(), analysis.statements());
            for (SqlLockCall call : analysis.calls()) {
                int s = c.text.offsetAt(call.nameStart());
                int e = c.text.offsetAt(call.nameEnd() - 1);
                SourceRegion mapped = s >= 0 && e >= s ? file.region(s, e + 1) : null;
                // inline: written in the argument, or in a local variable of the method; a field constant
                // executed here is reported at this call, with its declaration as a related location
                // a name assembled from several pieces ("pg_" + (attempt ? "try_" : "") + "advisory_lock") is
                // written nowhere as one: reported at the execution, the SQL as its declaration
                boolean inline = mapped != null
                        && contiguous(c.text, call.nameStart(), call.nameEnd())
                        && (c.text.constantName() == null || (s >= anchorStart && e < anchorEnd));
                SourceRegion primary = inline || c.api == ExecutionApi.DECLARATION
                        ? (mapped != null ? mapped : anchorRegion)
                        : anchorRegion;
                SourceRegion declaration = inline || c.api == ExecutionApi.DECLARATION ? null : mapped;
                LockKey key = bindParameters(
                        c,
                        SqlSites.key(call, (from, to) -> {
                            int a = c.text.offsetAt(from);
                            int b = c.text.offsetAt(to - 1);
                            return a >= 0 && b >= a ? file.region(a, b + 1) : null;
                        }),
                        call);
                if (c.field != null && c.exec != null) {
                    // prepared into a field elsewhere: reported at this execution, the SQL as its declaration
                    primary = nodeRegion(c.exec.getName());
                    declaration = mapped;
                }
                // further statements in the string (F17) or a DO block: the lock lasts until the SQL after it has run
                String ownTransaction = analysis.ownTransaction(call);
                LockSite site = new LockSite(
                        file.path() + "#" + sites.size(),
                        call.function(),
                        key,
                        primary,
                        declaration,
                        Language.JAVA,
                        c.api,
                        call.context(),
                        context,
                        c.wrapper != null && c.wrapper.own() != null
                                ? c.wrapper.own().context()
                                : executionContexts.analyze(c.contextNode, c.exec, c.api, ownTransaction));
                sites.add(site);
                siteNodes.put(site, c.exec != null ? c.exec : c.contextNode);
                if (ownTransaction != null) {
                    workInItsStatement.add(site.id());
                }
                if (c.wrapper != null) {
                    wrapped.put(site, c.wrapper);
                }
                if (!c.text.assumptions().isEmpty()) {
                    siteFlags.put(site, c.text.assumptions());
                }
                sqlUsages.put(site, SqlSiteUsage.of(c.text.text(), analysis, timeline, call, (from, to) -> {
                    int a = c.text.offsetAt(from);
                    int b = c.text.offsetAt(to - 1);
                    return a >= 0 && b >= a ? file.region(a, b + 1) : null;
                }));
            }
        }

        /** Whether the chars of a range of the text come from consecutive offsets of one literal of the file. */
        private static boolean contiguous(JavaText text, int from, int to) {
            for (int i = from + 1; i < to; i++) {
                if (text.offsetAt(i) < 0 || text.offsetAt(i) != text.offsetAt(i - 1) + 1) {
                    return false;
                }
            }
            return true;
        }

        /**
         * A SQL hash over Java input ({@code hashtext(?)}, {@code hashtext('" + name + "')}): the part with
         * the population of the Java expression bound or spliced there, or the part unchanged when that is
         * not visible or the SQL already says.
         */
        private KeyPart hashedInput(Candidate c, KeyPart part, SqlArgument arg) {
            if (part.hash().population().cardinality() != KeyPopulation.Cardinality.UNKNOWN) {
                return part;
            }
            String t = arg.text();
            Expression input = null;
            for (int k = 0; k < t.length() && input == null; k++) {
                input = c.text.holeAt(arg.start() + k);
            }
            Matcher m = PLACEHOLDER.matcher(t);
            if (input == null && c.wrapper == null && c.field == null && m.find()) {
                String token = m.group();
                int at = m.start();
                if (!m.find()) { // one placeholder only: the bound value is the hashed input
                    Placeholder p = Placeholder.of(token);
                    int position = p.position() > 0
                            ? p.position()
                            : p.name() == null
                                    ? questionMarksBefore(
                                                    c.text.text(), arg.start() + at, k -> c.text.holeAt(k) != null)
                                            + 1
                                    : 0;
                    input = ParameterBinder.bound(c.api, c.call, position, p.name());
                }
            }
            if (input == null) {
                return part;
            }
            String constant = part.hash().function() == KeyHash.Function.HASHTEXT ? constantText(input) : null;
            if (constant != null) {
                // hashtext(?) bound to a string the code fixes: the key PostgreSQL computes, as for hashtext('...')
                return KeyPart.known(
                        PostgresHash.hashtext(constant),
                        part.expression(),
                        nodeRegion(input),
                        null,
                        new KeyHash(KeyHash.Function.HASHTEXT, constant));
            }
            return new KeyPart(
                    part.kind(),
                    null,
                    part.expression(),
                    part.origin(),
                    part.originName(),
                    part.hash().withPopulation(HashInputs.of(input)));
        }

        /** @return the string an expression always has (a literal, a constant, their concatenation), or null */
        private String constantText(Expression input) {
            JavaText t = strings.evaluate(input);
            return t == null || t.hasHoles() ? null : t.text();
        }

        /** Replaces parameter parts by the value of the Java expression bound to them, where visible. */
        private LockKey bindParameters(Candidate c, LockKey key, SqlLockCall call) {
            List<KeyPart> parts = new ArrayList<>(key.parts());
            boolean changed = false;
            for (int i = 0; i < parts.size(); i++) {
                KeyPart part = parts.get(i);
                SqlArgument arg = call.arguments().get(i);
                if (part.kind() != KeyPart.Kind.PARAMETER && part.kind() != KeyPart.Kind.UNKNOWN) {
                    continue;
                }
                if (part.hash() != null) {
                    KeyPart refined = hashedInput(c, part, arg);
                    if (refined != part) {
                        parts.set(i, refined);
                        changed = true;
                    }
                    continue;
                }
                Expression bound = c.text.holeAt(arg.start());
                if (bound == null && part.kind() == KeyPart.Kind.PARAMETER) {
                    Placeholder p = Placeholder.of(arg.text().trim());
                    String name = p.name();
                    int position = p.position() > 0
                            ? p.position()
                            : name == null
                                    ? questionMarksBefore(c.text.text(), arg.start(), k -> c.text.holeAt(k) != null) + 1
                                    : 0;
                    bound = c.wrapper != null
                            ? (name == null ? c.wrapper.bound(c.call, position) : null)
                            : c.field != null
                                    ? ParameterBinder.fieldSetter(c.exec, c.field, position)
                                    : ParameterBinder.bound(c.api, c.call, position, name);
                    if (bound == null && c.call == null && c.contextNode instanceof CallableDeclaration<?> m) {
                        String parameter = methodParameter(m, position, name);
                        if (parameter != null && !parameter.equals(name)) {
                            parts.set(i, KeyPart.of(KeyPart.Kind.PARAMETER, parameter));
                            changed = true;
                        }
                        continue;
                    }
                }
                if (bound == null) {
                    continue;
                }
                KeyPart value = keys.evaluate(bound, file);
                parts.set(
                        i,
                        value.isKnown()
                                ? value
                                : new KeyPart(
                                        KeyPart.Kind.PARAMETER,
                                        null,
                                        value.expression(),
                                        null,
                                        null,
                                        value.hash(),
                                        BoundTypes.of(bound, arg.text(), value.hash())));
                changed = true;
            }
            return changed ? new LockKey(key.space(), parts) : key;
        }

        /**
         * The Java parameter a placeholder of SQL declared on a method binds to: by name, by a
         * {@code @Param("x")}/{@code @Bind("x")} annotation, the only parameter of the method, or by position.
         *
         * @return the parameter's name, or null
         */
        private static String methodParameter(CallableDeclaration<?> m, int position, String name) {
            var params = m.getParameters();
            if (name != null) {
                for (var p : params) {
                    if (p.getNameAsString().equals(name)) {
                        return name;
                    }
                }
                for (var p : params) {
                    for (AnnotationExpr an : p.getAnnotations()) {
                        String simple = an.getNameAsString()
                                .substring(an.getNameAsString().lastIndexOf('.') + 1);
                        Expression v = PARAM_NAME_ANNOTATIONS.contains(simple) ? memberValue(an, "value") : null;
                        if (v instanceof StringLiteralExpr s && s.asString().equals(name)) {
                            return p.getNameAsString();
                        }
                    }
                }
                String base =
                        name.startsWith("param") || name.startsWith("arg") ? name.replaceAll("^(param|arg)", "") : "";
                if (base.matches("\\d+")) {
                    int n = Integer.parseInt(base) - (name.startsWith("arg") ? 0 : 1);
                    return n >= 0 && n < params.size() ? params.get(n).getNameAsString() : null;
                }
                return params.size() == 1 ? params.get(0).getNameAsString() : null;
            }
            return position >= 1 && position <= params.size()
                    ? params.get(position - 1).getNameAsString()
                    : null;
        }

        private JavaContext context(Candidate c) {
            Node n = c.contextNode;
            String type = n.findAncestor(TypeDeclaration.class)
                    .map(TypeDeclaration::getNameAsString)
                    .orElse("");
            if (n instanceof TypeDeclaration<?> t) {
                type = t.getNameAsString();
            }
            String method = methodName(n);
            String exec = null;
            String receiver = null;
            MethodCallExpr running = c.exec != null ? c.exec : c.call;
            if (running != null) {
                receiver = running.getScope()
                        .map(Node::toString)
                        .map(JavaFrontEnd::abbreviate)
                        .orElse(null);
                exec = (receiver == null ? "" : receiver + ".") + running.getNameAsString();
            }
            return new JavaContext(type, method, exec, receiver, c.text.constantName());
        }
    }

    /**
     * @param n a node
     * @return the name of the method holding it: the method's name, {@code <init>} for constructors and
     *     instance initialisers, {@code <clinit>} for static initialisers, {@code <field>} for field initialisers
     */
    static String methodName(Node n) {
        Node cur = n;
        while (cur != null) {
            if (cur instanceof MethodDeclaration m) {
                return m.getNameAsString();
            }
            if (cur instanceof ConstructorDeclaration) {
                return "<init>";
            }
            if (cur instanceof InitializerDeclaration i) {
                return i.isStatic() ? "<clinit>" : "<init>";
            }
            if (cur instanceof FieldDeclaration
                    || (cur instanceof VariableDeclarator
                            && cur.getParentNode()
                                    .filter(p -> p instanceof FieldDeclaration)
                                    .isPresent())) {
                return "<field>";
            }
            cur = cur.getParentNode().orElse(null);
        }
        return "";
    }

    private static int parsePosition(String digits) {
        try {
            return Integer.parseInt(digits.replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Counts JDBC {@code ?} placeholders before an offset, outside quoted strings and identifiers, skipping the
     * {@code ?} that stand for a Java value spliced into the text ({@code "FROM " + table + " LIMIT ?"}: the table's
     * hole is no JDBC parameter).
     *
     * @param hole whether the {@code ?} at an offset is such a hole
     */
    static int questionMarksBefore(String sql, int end, IntPredicate hole) {
        int n = 0;
        char quote = 0;
        for (int i = 0; i < end && i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
            } else if (ch == '?' && !hole.test(i)) {
                n++;
            }
        }
        return n;
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() > 80 ? one.substring(0, 77) + "..." : one;
    }

    private static boolean mentionsAdvisory(String text) {
        return Prefilter.mentionsAdvisory(text);
    }
}
