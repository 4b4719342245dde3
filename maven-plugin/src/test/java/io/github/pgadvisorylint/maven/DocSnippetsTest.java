package io.github.pgadvisorylint.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Maven snippets of the README and {@code docs/} are the ones the invoker ITs run: each XML block
 * that names the plugin is marked {@code <!-- tested by maven-plugin/src/it/NAME -->}, and that IT's
 * {@code pom.xml} holds the block's lines, in order and together, once its {@code it-only} parts are
 * left out and {@code @project.version@} reads as this build's version. The ITs run on Maven 3.6.3,
 * 3.8.7 and 3.9 (maven-plugin/pom.xml).
 */
class DocSnippetsTest {

    private static final Pattern MARKER = Pattern.compile("<!-- tested by maven-plugin/src/it/([a-z0-9-]+) -->");
    private static final Pattern IT_ONLY = Pattern.compile("(?s)[ \\t]*<!-- it-only:.*?<!-- /it-only -->[ \\t]*\\n");

    private static Path repository() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath()
                .getParent();
    }

    /** One XML block of a Markdown file, with the IT its marker names (null when unmarked). */
    private record Block(Path file, int line, String it, List<String> lines) {}

    private static List<Block> xmlBlocks(Path file) throws IOException {
        List<String> text = Files.readAllLines(file);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (!text.get(i).equals("```xml")) {
                continue;
            }
            String it = null;
            for (int back = i - 1; back >= 0 && back >= i - 2; back--) {
                Matcher m = MARKER.matcher(text.get(back));
                if (m.find()) {
                    it = m.group(1);
                }
            }
            int end = i + 1;
            while (!text.get(end).equals("```")) {
                end++;
            }
            blocks.add(new Block(file, i + 1, it, List.copyOf(text.subList(i + 1, end))));
            i = end;
        }
        return blocks;
    }

    /** @return the XML blocks of the README and docs/ that name the plugin or carry a marker */
    private static List<Block> pluginBlocks() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(repository().resolve("README.md"));
        try (Stream<Path> docs = Files.list(repository().resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path f : files) {
            for (Block b : xmlBlocks(f)) {
                if (b.it() != null || String.join("\n", b.lines()).contains("pg-advisory-lint-maven-plugin")) {
                    blocks.add(b);
                }
            }
        }
        return blocks;
    }

    private static List<String> trimmed(List<String> lines) {
        return lines.stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void everyPluginSnippetIsMarkedWithTheItThatRunsIt() throws IOException {
        List<Block> blocks = pluginBlocks();
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(5);
        for (Block b : blocks) {
            assertThat(b.it())
                    .as(
                            "%s:%d: an XML snippet naming the plugin needs a '<!-- tested by"
                                    + " maven-plugin/src/it/NAME -->' line above it",
                            repository().relativize(b.file()), b.line())
                    .isNotNull();
        }
    }

    @Test
    void everyMarkedSnippetIsInItsItAsPrinted() throws IOException {
        for (Block b : pluginBlocks()) {
            if (b.it() == null) {
                continue;
            }
            Path pom =
                    repository().resolve("maven-plugin/src/it").resolve(b.it()).resolve("pom.xml");
            assertThat(pom)
                    .as("the IT of %s:%d", b.file().getFileName(), b.line())
                    .isRegularFile();
            String project = IT_ONLY.matcher(Files.readString(pom))
                    .replaceAll("")
                    .replace("@project.version@", ToolInfo.version());
            List<String> haystack = trimmed(List.of(project.split("\n")));
            List<String> needle = trimmed(b.lines());
            assertThat(contains(haystack, needle))
                    .as(
                            "%s:%d: the snippet's lines, in order and together, in %s (it-only parts left out)",
                            repository().relativize(b.file()),
                            b.line(),
                            repository().relativize(pom))
                    .isTrue();
        }
    }

    @Test
    void markerAndItOnlyMatchingSeeTheirOwnSyntax() {
        String pom = "<a>\n  <!-- it-only: pins -->\n  <x/>\n  <!-- /it-only -->\n<b/>\n</a>\n";
        assertThat(IT_ONLY.matcher(pom).replaceAll("")).isEqualTo("<a>\n<b/>\n</a>\n");
        assertThat(contains(List.of("<a>", "<b/>", "</a>"), List.of("<b/>", "</a>")))
                .isTrue();
        assertThat(contains(List.of("<a>", "<c/>", "<b/>"), List.of("<a>", "<b/>")))
                .isFalse();
    }

    private static boolean contains(List<String> haystack, List<String> needle) {
        for (int start = 0; start + needle.size() <= haystack.size(); start++) {
            if (haystack.subList(start, start + needle.size()).equals(needle)) {
                return true;
            }
        }
        return false;
    }
}
