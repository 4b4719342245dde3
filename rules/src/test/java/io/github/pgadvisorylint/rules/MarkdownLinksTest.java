package io.github.pgadvisorylint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.fixtures.FixtureHarness;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The relative links of {@code README.md} and every {@code docs/**}{@code /*.md} lead somewhere: each
 * {@code [text](path)} and {@code [text](path#anchor)} (images too) names a file or folder of the
 * repository, and each anchor into a Markdown file, or a bare {@code #anchor} into the same file, names
 * one of its headings, as GitHub derives them. Links with a scheme ({@code https:}, {@code mailto:}) and
 * links inside code are not checked. Every Markdown file under {@code docs/} is reachable from the
 * README by such links, so nothing moved out of the README is lost to its readers.
 */
class MarkdownLinksTest {

    /** The opening or closing line of a fenced code block: the fence in group 1. */
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");

    /** An inline code span. */
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?!`).*?(?<!`)\\1(?!`)");

    /** An inline link or image: its target in group 1, an optional title after it. */
    private static final Pattern LINK =
            Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    /** An ATX heading: its text in group 1. */
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");

    /** The underline of a setext heading. */
    private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(?:=+|-+)[ \\t]*$");

    /** An explicit HTML anchor: its name in group 1. */
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s[^>]*?(?:id|name)=\"([^\"]+)\"");

    /** A link with a scheme, such as {@code https:} or {@code mailto:}: not checked here. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    /** A link or image in a heading's text, whose text alone reaches the anchor. */
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    /** An HTML tag in a heading's text. */
    private static final Pattern HTML_TAG = Pattern.compile("<[^>]+>");

    /** What GitHub drops from a heading's text to make its anchor: all but letters, digits, '_', '-', ' '. */
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}_ -]");

    @Test
    void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
        Path root = FixtureHarness.repositoryRoot();
        List<Path> documents = documents(root);
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path document : documents) {
            for (Link link : links(document)) {
                checked++;
                String problem = problem(root, document, link, anchors);
                if (problem != null) {
                    broken.add(root.relativize(document) + ":" + link.line() + ": (" + link.target() + ") " + problem);
                }
            }
        }
        assertThat(checked).as("relative links in README.md and docs/").isPositive();
        assertThat(broken)
                .withFailMessage(
                        "%d broken link(s) in README.md and docs/:%n  %s",
                        broken.size(), String.join(System.lineSeparator() + "  ", broken))
                .isEmpty();
    }

    @Test
    void everyDocumentUnderDocsIsReachableFromTheReadme() throws IOException {
        Path root = FixtureHarness.repositoryRoot();
        Set<Path> reached = new LinkedHashSet<>();
        Deque<Path> queue = new ArrayDeque<>();
        Path readme = root.resolve("README.md");
        reached.add(readme);
        queue.add(readme);
        while (!queue.isEmpty()) {
            Path document = queue.remove();
            for (Link link : links(document)) {
                Path target = resolve(root, document, link.target());
                if (target != null
                        && target.toString().endsWith(".md")
                        && Files.isRegularFile(target)
                        && reached.add(target)) {
                    queue.add(target);
                }
            }
        }
        Set<String> unreached = new TreeSet<>();
        for (Path document : documents(root)) {
            if (!reached.contains(document)) {
                unreached.add(root.relativize(document).toString());
            }
        }
        assertThat(unreached)
                .as("documents under docs/ that no chain of links from README.md reaches (link each from README.md"
                        + " or a document it reaches; a rule page from its row in the README's Rules table)")
                .isEmpty();
    }

    /** A relative link of a Markdown file: its target as written and the line it starts on. */
    private record Link(String target, int line) {}

    /**
     * @param root the repository root
     * @return {@code README.md} and every {@code *.md} below {@code docs/}, normalized, sorted
     */
    private static List<Path> documents(Path root) throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(root.resolve("README.md").normalize());
        try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
                    .map(Path::normalize)
                    .sorted()
                    .forEach(documents::add);
        }
        return documents;
    }

    /**
     * @param document a Markdown file
     * @return its links without a scheme, outside code blocks and code spans, in order
     */
    private static List<Link> links(Path document) throws IOException {
        List<String> lines =
                Files.readString(document, StandardCharsets.UTF_8).lines().toList();
        StringBuilder prose = new StringBuilder();
        String fence = null;
        for (String line : lines) {
            Matcher f = FENCE.matcher(line);
            if (fence == null && f.lookingAt()) {
                fence = f.group(1);
                prose.append('\n');
            } else if (fence != null) {
                if (f.lookingAt()
                        && f.group(1).startsWith(fence)
                        && line.strip().equals(f.group(1))) {
                    fence = null;
                }
                prose.append('\n');
            } else {
                prose.append(CODE_SPAN.matcher(line).replaceAll("")).append('\n');
            }
        }
        List<Link> links = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            String target = m.group(1);
            if (!target.isEmpty() && !SCHEME.matcher(target).find()) {
                int line = 1;
                for (int i = 0; i < m.start(); i++) {
                    line += prose.charAt(i) == '\n' ? 1 : 0;
                }
                links.add(new Link(target, line));
            }
        }
        return links;
    }

    /**
     * @param root the repository root
     * @param document the file holding the link
     * @param link the link
     * @param anchors anchors of the Markdown files read so far, by file
     * @return what is wrong with the link, or null when it leads to an existing file and heading
     */
    private static String problem(Path root, Path document, Link link, Map<Path, Set<String>> anchors)
            throws IOException {
        Path target = resolve(root, document, link.target());
        if (target == null || !target.startsWith(root)) {
            return "leads out of the repository";
        }
        if (!Files.exists(target)) {
            return "no such file or folder: " + root.relativize(target);
        }
        int hash = link.target().indexOf('#');
        String anchor = hash < 0 ? "" : decode(link.target().substring(hash + 1));
        if (anchor.isEmpty() || !target.toString().endsWith(".md") || !Files.isRegularFile(target)) {
            return null;
        }
        Set<String> known = anchors.get(target);
        if (known == null) {
            known = anchors(target);
            anchors.put(target, known);
        }
        return known.contains(anchor)
                ? null
                : "no heading with the anchor #" + anchor + " in " + root.relativize(target);
    }

    /**
     * @param root the repository root
     * @param document the file holding the link
     * @param target the link's target as written
     * @return the file or folder it names, normalized (the document itself for a bare anchor), or null
     *     when the path is malformed
     */
    private static Path resolve(Path root, Path document, String target) {
        int end = target.length();
        for (char c : new char[] {'#', '?'}) {
            int at = target.indexOf(c);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        String path = decode(target.substring(0, end));
        try {
            if (path.isEmpty()) {
                return document;
            }
            return path.startsWith("/")
                    ? root.resolve(path.substring(1)).normalize()
                    : document.getParent().resolve(path).normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * @param markdown a Markdown file
     * @return the anchors GitHub gives its headings (a repeated heading's with {@code -1}, {@code -2},
     *     ...), and those of its explicit {@code <a id>} or {@code <a name>} tags
     */
    static Set<String> anchors(Path markdown) throws IOException {
        List<String> lines =
                Files.readString(markdown, StandardCharsets.UTF_8).lines().toList();
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String fence = null;
        String previous = "";
        for (String line : lines) {
            Matcher f = FENCE.matcher(line);
            if (fence == null && f.lookingAt()) {
                fence = f.group(1);
                previous = "";
                continue;
            }
            if (fence != null) {
                if (f.lookingAt()
                        && f.group(1).startsWith(fence)
                        && line.strip().equals(f.group(1))) {
                    fence = null;
                }
                continue;
            }
            Matcher atx = ATX_HEADING.matcher(line);
            String heading = null;
            if (atx.matches()) {
                heading = atx.group(1) == null ? "" : atx.group(1);
            } else if (SETEXT_UNDERLINE.matcher(line).matches()
                    && !previous.isBlank()
                    && !ATX_HEADING.matcher(previous).matches()
                    && !previous.strip().startsWith("|")) {
                heading = previous.strip();
            }
            if (heading != null) {
                String slug = slug(heading);
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
            previous = heading == null ? line : "";
        }
        return anchors;
    }

    /**
     * @param heading a heading's Markdown text
     * @return its anchor as GitHub makes it: the text lower-cased, punctuation other than '-' and '_'
     *     dropped, each space a '-'
     */
    static String slug(String heading) {
        String text = INLINE_LINK.matcher(heading).replaceAll("$1");
        text = HTML_TAG.matcher(text).replaceAll("");
        text = NOT_IN_ANCHOR.matcher(text.strip().toLowerCase(Locale.ROOT)).replaceAll("");
        return text.replace(' ', '-');
    }

    /**
     * @param s part of a link target, maybe percent-encoded
     * @return it decoded, or as written when it is not valid percent-encoding
     */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
