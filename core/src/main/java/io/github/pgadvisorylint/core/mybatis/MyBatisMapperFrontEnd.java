package io.github.pgadvisorylint.core.mybatis;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.Prefilter;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.facts.HelperSummary;
import io.github.pgadvisorylint.core.facts.Suppression;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.ExecutionContext;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.ReleaseGuarantee;
import io.github.pgadvisorylint.core.source.SafeXml;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import io.github.pgadvisorylint.core.sql.SqlAnalysis;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import io.github.pgadvisorylint.core.sql.SqlLockCall;
import io.github.pgadvisorylint.core.sql.SqlProblem;
import io.github.pgadvisorylint.core.sql.SqlSites;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The MyBatis mapper XML front end: a file whose root element is {@code <mapper namespace="com.acme.LockMapper">}
 * holds statements ({@code <select>}, {@code <insert>}, {@code <update>}, {@code <delete>}) whose text is
 * SQL with {@code #{x}}/{@code ${x}} parameters. Each lock function in a statement becomes a lock site at
 * its exact line and column, and each statement with lock sites a {@link HelperSummary} under the mapper
 * interface's simple name and the statement id, so {@code mapper.tryLock(42)} becomes a lock site at the
 * call (the parameters come from the interface method when its file is given, else from the statement's
 * distinct parameter names in order).
 *
 * <p>The XML is read with the JDK's StAX parser with DTDs not processed and external entities and DTDs
 * never loaded (no entity expansion, {@code accessExternalDTD} and {@code accessExternalSchema} empty):
 * a mapper's {@code <!DOCTYPE mapper PUBLIC ...>} is accepted and ignored. The parser checks
 * well-formedness and finds each statement's start tag; the statement's content (text, CDATA, entity
 * references, dynamic-SQL tags such as {@code <if>} or {@code <include>}, which become spaces) is then
 * decoded from the file text itself, so every char keeps its offset. Thread-safe.
 */
public final class MyBatisMapperFrontEnd {

    private static final Set<String> STATEMENTS = Set.of("select", "insert", "update", "delete");
    private static final Pattern PARAMETER = Pattern.compile("^[#$]\\{\\s*([A-Za-z_][\\w.]*)[^}]*}$");
    private static final int SYNTHETIC = -1;

    private final SqlAnalyzer sqlAnalyzer;

    /** @param sqlAnalyzer the SQL front end to hand each statement's text to */
    public MyBatisMapperFrontEnd(SqlAnalyzer sqlAnalyzer) {
        this.sqlAnalyzer = sqlAnalyzer;
    }

    /**
     * A cheap test before parsing.
     *
     * @param text a file's text
     * @return true when the text may be a MyBatis mapper ({@code <mapper} appears)
     */
    public static boolean mayBeMapper(String text) {
        return text.contains("<mapper");
    }

    /**
     * @param file an XML file
     * @return the {@code namespace} of its root {@code <mapper>} element, or empty when the root is another
     *     element, the namespace is missing, or the XML is not well-formed up to the root
     */
    public static Optional<String> mapperNamespace(SourceFile file) {
        try {
            XMLStreamReader r = SafeXml.inputFactory().createXMLStreamReader(new StringReader(file.text()));
            try {
                while (r.hasNext()) {
                    if (r.next() == XMLStreamConstants.START_ELEMENT) {
                        if (!r.getLocalName().equals("mapper")) {
                            return Optional.empty();
                        }
                        String ns = r.getAttributeValue(null, "namespace");
                        return ns == null || ns.isBlank() ? Optional.empty() : Optional.of(ns.trim());
                    }
                }
            } finally {
                r.close();
            }
        } catch (XMLStreamException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** One statement element: its id, the offset just after its start tag, and its line. */
    private record Statement(String id, String element, int contentStart) {}

    /**
     * @param file            a mapper XML file (see {@link #mapperNamespace})
     * @param mapperInterface the parsed mapper interface ({@code namespace}'s simple name), or null when not
     *                        in the scan; its methods give each statement's parameters
     * @return the file's lock sites, lifecycles, notifications (an XML that is not well-formed becomes a
     *     located warning), suppressions, and one helper summary per statement that locks; never throws
     */
    public FileFacts analyze(SourceFile file, CompilationUnit mapperInterface) {
        String text = file.text();
        String namespace = null;
        List<Statement> statements = new ArrayList<>();
        try {
            XMLStreamReader r = SafeXml.inputFactory().createXMLStreamReader(new StringReader(text));
            try {
                int depth = 0;
                int childIndex = -1;
                List<Integer> childEnds = childTagEnds(text);
                while (r.hasNext()) {
                    int ev = r.next();
                    if (ev == XMLStreamConstants.START_ELEMENT) {
                        depth++;
                        if (depth == 1) {
                            if (!r.getLocalName().equals("mapper")) {
                                return new FileFacts(file.path(), List.of(), List.of(), List.of(), List.of());
                            }
                            namespace = r.getAttributeValue(null, "namespace");
                        } else if (depth == 2) {
                            childIndex++;
                            // the reader's own character offset drifts after an empty element such as
                            // <resultMap .../>, so the start tag's end comes from a lexical scan of the text
                            int end = childIndex < childEnds.size() ? childEnds.get(childIndex) : -1;
                            String id = r.getAttributeValue(null, "id");
                            if (STATEMENTS.contains(r.getLocalName())
                                    && id != null
                                    && end > 0
                                    && end <= text.length()
                                    && text.charAt(end - 1) == '>') {
                                statements.add(new Statement(id.trim(), r.getLocalName(), end));
                            }
                        }
                    } else if (ev == XMLStreamConstants.END_ELEMENT) {
                        depth--;
                    }
                }
            } finally {
                r.close();
            }
        } catch (XMLStreamException | RuntimeException e) {
            int line = e instanceof XMLStreamException x && x.getLocation() != null
                    ? Math.max(1, x.getLocation().getLineNumber())
                    : 1;
            String msg = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().reduce((a, b) -> b).orElse("");
            return FileFacts.failed(
                    file.path(),
                    List.of(new Notification(
                            Severity.WARNING,
                            "xml-parse-error",
                            "MyBatis mapper XML could not be parsed; skipped (" + abbreviate(msg) + ")",
                            SourceRegion.line(file.path(), line))));
        }
        String typeName = namespace == null
                ? ""
                : namespace.substring(namespace.lastIndexOf('.') + 1).trim();
        List<LockSite> sites = new ArrayList<>();
        List<LockLifecycle> lifecycles = new ArrayList<>();
        List<Notification> notes = new ArrayList<>();
        Map<Statement, List<LockSite>> byStatement = new LinkedHashMap<>();
        for (Statement st : statements) {
            Content content = content(text, st.contentStart);
            if (!Prefilter.mentionsAdvisory(content.text)) {
                continue;
            }
            SqlAnalysis analysis = sqlAnalyzer.analyze(content.text);
            for (SqlProblem p : analysis.problems()) {
                int off = content.offsetAt(p.offset());
                notes.add(new Notification(
                        Severity.NOTE,
                        "sql-parse-fallback",
                        p.message(),
                        off >= 0 ? file.region(off, off) : file.region(st.contentStart, st.contentStart)));
            }
            for (SqlLockCall call : analysis.calls()) {
                int s = content.offsetAt(call.nameStart());
                int e = content.offsetAt(call.nameEnd() - 1);
                SourceRegion region =
                        s >= 0 && e >= s ? file.region(s, e + 1) : file.region(st.contentStart, st.contentStart);
                LockKey key = SqlSites.key(call, (from, to) -> {
                    int a = content.offsetAt(from);
                    int b = content.offsetAt(to - 1);
                    return a >= 0 && b >= a ? file.region(a, b + 1) : null;
                });
                LockSite site = new LockSite(
                        file.path() + "#" + sites.size(),
                        call.function(),
                        key,
                        region,
                        null,
                        Language.XML,
                        ExecutionApi.MYBATIS,
                        call.context(),
                        new JavaContext(typeName, st.id, null, null, null),
                        ExecutionContext.UNKNOWN);
                sites.add(site);
                byStatement.computeIfAbsent(st, k -> new ArrayList<>()).add(site);
                if (call.function().operation().isAcquisition()) {
                    lifecycles.add(
                            call.function().level() == LockLevel.TRANSACTION
                                    ? new LockLifecycle(
                                            site, ReleaseGuarantee.TRANSACTION_END, null, "transaction-level lock")
                                    : new LockLifecycle(
                                            site,
                                            ReleaseGuarantee.UNKNOWN,
                                            null,
                                            "mapper statement " + typeName + "." + st.id + ": its callers release it"));
                }
            }
        }
        List<HelperSummary> helpers = new ArrayList<>();
        if (!typeName.isEmpty()) {
            for (Map.Entry<Statement, List<LockSite>> e : byStatement.entrySet()) {
                helpers.add(summary(typeName, e.getKey().id, e.getValue(), mapperInterface));
            }
        }
        return new FileFacts(
                file.path(),
                sites,
                lifecycles,
                notes,
                Suppression.fromComments(file.path(), text.lines().toList()),
                helpers);
    }

    /**
     * The helper summary of one statement: its parameters from the interface method with the statement's
     * id (names, {@code @Param("x")}, the only parameter, {@code paramN}/{@code argN}), else the distinct
     * {@code #{}}/{@code ${}} names of the statement in order of appearance.
     */
    private static HelperSummary summary(
            String typeName, String id, List<LockSite> sites, CompilationUnit mapperInterface) {
        List<String> names = null;
        List<String> bindNames = null;
        if (mapperInterface != null) {
            for (MethodDeclaration m : mapperInterface.findAll(MethodDeclaration.class)) {
                if (m.getNameAsString().equals(id)
                        && m.findAncestor(TypeDeclaration.class)
                                .map(t -> t.getNameAsString().equals(typeName))
                                .orElse(false)) {
                    names = m.getParameters().stream()
                            .map(Parameter::getNameAsString)
                            .toList();
                    bindNames = m.getParameters().stream()
                            .map(MyBatisMapperFrontEnd::paramAnnotation)
                            .toList();
                    break;
                }
            }
        }
        if (names == null) {
            Set<String> distinct = new LinkedHashSet<>();
            for (LockSite s : sites) {
                for (KeyPart p : s.key().parts()) {
                    String n = parameterName(p);
                    if (n != null) {
                        distinct.add(n);
                    }
                }
            }
            names = List.copyOf(distinct);
            bindNames = Arrays.asList(new String[names.size()]);
        }
        List<HelperSummary.Op> ops = new ArrayList<>();
        for (LockSite s : sites) {
            List<HelperSummary.KeySource> parts = new ArrayList<>();
            for (KeyPart p : s.key().parts()) {
                String n = parameterName(p);
                int index = n == null ? -1 : indexOf(n, names, bindNames);
                parts.add(index >= 0 ? new HelperSummary.KeySource(index, null) : new HelperSummary.KeySource(-1, p));
            }
            ops.add(new HelperSummary.Op(s.function(), parts, s, false));
        }
        return new HelperSummary(typeName, id, names.size(), false, ops);
    }

    private static int indexOf(String name, List<String> names, List<String> bindNames) {
        String first = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
        for (int i = 0; i < names.size(); i++) {
            if (first.equals(bindNames.get(i))) {
                return i;
            }
        }
        int i = names.indexOf(first);
        if (i >= 0) {
            return i;
        }
        Matcher m = Pattern.compile("^(param|arg)(\\d+)$").matcher(first);
        if (m.matches()) {
            int n = Integer.parseInt(m.group(2)) - (m.group(1).equals("param") ? 1 : 0);
            return n >= 0 && n < names.size() ? n : -1;
        }
        return names.size() == 1 ? 0 : -1;
    }

    private static String paramAnnotation(Parameter p) {
        for (AnnotationExpr a : p.getAnnotations()) {
            if (a.getNameAsString().endsWith("Param")
                    && a instanceof SingleMemberAnnotationExpr s
                    && s.getMemberValue() instanceof StringLiteralExpr lit) {
                return lit.asString();
            }
        }
        return null;
    }

    /** @return the name in {@code #{name,jdbcType=BIGINT}} or {@code ${name}}, or null for any other part */
    private static String parameterName(KeyPart p) {
        if (p.isKnown()) {
            return null;
        }
        Matcher m = PARAMETER.matcher(p.expression().trim());
        return m.matches() ? m.group(1) : null;
    }

    /** A statement's text with the file offset of every char ({@link #SYNTHETIC} for chars standing for a tag). */
    private static final class Content {
        private final StringBuilder out = new StringBuilder();
        private int[] offsets = new int[64];
        private String text;

        void add(char c, int offset) {
            if (out.length() == offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            offsets[out.length()] = offset;
            out.append(c);
        }

        int offsetAt(int i) {
            return i >= 0 && i < out.length() ? offsets[i] : SYNTHETIC;
        }
    }

    /**
     * Decodes an element's content from the raw text: chars and CDATA keep their offsets, the five XML
     * entities and character references decode to one char at the {@code &}, other entity references,
     * tags and their attributes become one space, comments and processing instructions vanish. Ends at
     * the element's own end tag.
     */
    private static Content content(String src, int from) {
        Content c = new Content();
        int depth = 0;
        int i = from;
        int n = src.length();
        while (i < n) {
            char ch = src.charAt(i);
            if (ch == '<') {
                if (src.startsWith("<![CDATA[", i)) {
                    int end = src.indexOf("]]>", i + 9);
                    end = end < 0 ? n : end;
                    for (int k = i + 9; k < end; k++) {
                        c.add(src.charAt(k), k);
                    }
                    i = end + 3;
                } else if (src.startsWith("<!--", i)) {
                    int end = src.indexOf("-->", i + 4);
                    i = end < 0 ? n : end + 3;
                } else if (src.startsWith("<?", i)) {
                    int end = src.indexOf("?>", i + 2);
                    i = end < 0 ? n : end + 2;
                } else if (src.startsWith("</", i)) {
                    if (depth == 0) {
                        break;
                    }
                    depth--;
                    c.add(' ', SYNTHETIC);
                    int end = src.indexOf('>', i);
                    i = end < 0 ? n : end + 1;
                } else {
                    int end = tagEnd(src, i);
                    if (end < n && src.charAt(end - 1) != '/') {
                        depth++;
                    }
                    String keyword = keyword(src.substring(i + 1, Math.min(end, n)));
                    c.add(' ', SYNTHETIC);
                    for (int k = 0; k < keyword.length(); k++) {
                        c.add(keyword.charAt(k), SYNTHETIC);
                    }
                    i = end + 1;
                }
            } else if (ch == '&') {
                int end = src.indexOf(';', i);
                String entity = end > i && end - i < 12 ? src.substring(i + 1, end) : null;
                Character decoded = entity == null ? null : entity(entity);
                c.add(decoded == null ? ' ' : decoded, i);
                i = entity == null ? i + 1 : end + 1;
            } else {
                c.add(ch, i);
                i++;
            }
        }
        c.text = c.out.toString();
        return c;
    }

    private static final Pattern PREFIX = Pattern.compile("\\bprefix\\s*=\\s*([\"'])([^\"']*)\\1");

    /**
     * The SQL a dynamic-SQL tag adds before its content: {@code <where>} a {@code WHERE}, {@code <set>} a
     * {@code SET}, {@code <trim prefix="X">} its prefix; other tags nothing.
     */
    private static String keyword(String tag) {
        String name = tag.split("[\\s/>]", 2)[0];
        if (name.equals("where")) {
            return "WHERE ";
        }
        if (name.equals("set")) {
            return "SET ";
        }
        if (name.equals("trim")) {
            Matcher m = PREFIX.matcher(tag);
            if (m.find() && m.group(2).matches("[A-Za-z ]+")) {
                return m.group(2) + " ";
            }
        }
        return "";
    }

    /** The offset of the {@code >} closing a start tag, skipping quoted attribute values. */
    /**
     * The offsets just after the start tags of the root element's children, in document order, found
     * lexically (comments, CDATA, processing instructions and a DOCTYPE with its internal subset are
     * skipped; quoted attribute values may hold {@code >}). Only called on XML that the StAX reader
     * accepts, so tags are well formed.
     */
    static List<Integer> childTagEnds(String src) {
        List<Integer> out = new ArrayList<>();
        int depth = 0;
        int n = src.length();
        int i = 0;
        while (i < n) {
            int lt = src.indexOf('<', i);
            if (lt < 0) {
                break;
            }
            if (src.startsWith("<!--", lt)) {
                i = skipPast(src, "-->", lt + 4);
            } else if (src.startsWith("<![CDATA[", lt)) {
                i = skipPast(src, "]]>", lt + 9);
            } else if (src.startsWith("<?", lt)) {
                i = skipPast(src, "?>", lt + 2);
            } else if (src.startsWith("<!", lt)) {
                int end = tagEnd(src, lt);
                int bracket = src.indexOf('[', lt);
                if (bracket >= 0 && bracket < end) {
                    end = tagEnd(src, skipPast(src, "]", bracket + 1));
                }
                i = end + 1;
            } else if (src.startsWith("</", lt)) {
                depth--;
                i = tagEnd(src, lt) + 1;
            } else {
                int end = tagEnd(src, lt);
                depth++;
                if (depth == 2 && end < n) {
                    out.add(end + 1);
                }
                if (end < n && src.charAt(end - 1) == '/') {
                    depth--;
                }
                i = end + 1;
            }
        }
        return out;
    }

    private static int skipPast(String src, String close, int from) {
        int end = src.indexOf(close, from);
        return end < 0 ? src.length() : end + close.length();
    }

    private static int tagEnd(String src, int from) {
        char quote = 0;
        for (int i = from; i < src.length(); i++) {
            char ch = src.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                }
            } else if (ch == '"' || ch == '\'') {
                quote = ch;
            } else if (ch == '>') {
                return i;
            }
        }
        return src.length();
    }

    private static Character entity(String name) {
        switch (name) {
            case "lt":
                return '<';
            case "gt":
                return '>';
            case "amp":
                return '&';
            case "quot":
                return '"';
            case "apos":
                return '\'';
            default:
                try {
                    if (name.startsWith("#x") || name.startsWith("#X")) {
                        return (char) Integer.parseInt(name.substring(2), 16);
                    }
                    if (name.startsWith("#")) {
                        return (char) Integer.parseInt(name.substring(1));
                    }
                } catch (NumberFormatException e) {
                    return null;
                }
                return null;
        }
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 160 ? one.substring(0, 157) + "..." : one;
    }
}
