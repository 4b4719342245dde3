package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.report.TerminalText;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.junit.jupiter.api.Test;

/**
 * {@code locks} text and Markdown with hostile text from both sides: from the server (application names, the
 * role, the server version, session states) and from the code (file names, SQL text, class names), holding CR,
 * LF, ESC, other C0, C1, {@code |}, {@code <script>}, link and image syntax, {@code %}, {@code ::} and
 * {@code ##[}. The text must show it escaped and start no workflow command; the Markdown (rendered as GitHub
 * does, CommonMark with GFM tables) must keep one row per key with six cells and no link, image or HTML.
 */
class LocksReportTest {

    private static final String HOSTILE = "a\rb\nc \u001b[31mred\u001b]0;t\u0007 nul\u0000 csi\u009b2J |pipe|"
            + " <script>alert(1)</script> [x](javascript:alert(2)) ![i](javascript:alert(3)) 100% ::stop-commands::z"
            + " ##[add-mask]m k:v, # h";

    private static LocksReport report() {
        OffsetDateTime now = OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC);
        Map<Integer, LiveLocks.Session> sessions = new LinkedHashMap<>();
        sessions.put(
                101,
                new LiveLocks.Session(
                        101, "::stop-commands::app " + HOSTILE, "u", HOSTILE, now, true, List.of(), null, null, null));
        sessions.put(
                102, new LiveLocks.Session(102, HOSTILE, "u", "active", now, true, List.of(101), null, null, null));
        LiveLocks.Snapshot snapshot = new LiveLocks.Snapshot(
                "db" + HOSTILE + ":5432/app",
                "17.2 " + HOSTILE,
                "role " + HOSTILE,
                now,
                List.of(
                        new LiveLocks.Lock(101, 0, 2001, 1, false, true, null),
                        new LiveLocks.Lock(102, 0, 2001, 1, false, false, now)),
                sessions);
        LockKey key = new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(2001, "hashtext('" + HOSTILE + "')", null)));
        LockSite site = new LockSite(
                "x#0",
                AdvisoryFunction.PG_ADVISORY_LOCK,
                key,
                new SourceRegion("::stop-commands::" + HOSTILE + ".java", 2, 3, 2, 9),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext("Job" + HOSTILE, "run", "st.execute", "st", null));
        return new LocksReport(snapshot, KeyInventory.of(new LockModel(List.of(site), List.of())));
    }

    private static String write(LocksReport.Format format) throws Exception {
        StringWriter out = new StringWriter();
        report().write(format, out);
        return out.toString();
    }

    private static void assertNoRawControls(String out) {
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            assertThat(c != '\n' && TerminalText.escape(String.valueOf(c)).length() > 1 && c != ':' && c != '#')
                    .as("raw U+%04X at %d in%n%s", (int) c, i, out)
                    .isFalse();
        }
    }

    @Test
    void textShowsServerAndCodeTextEscapedAndStartsNoWorkflowCommand() throws Exception {
        String out = write(LocksReport.Format.TEXT);
        assertNoRawControls(out);
        for (String line : out.split("\n", -1)) {
            assertThat(line.strip()).as(out).doesNotStartWith("::");
            assertThat(line).doesNotContain("##[");
        }
        assertThat(out)
                .startsWith("Advisory locks on dba\\rb\\nc \\u001B[31mred")
                .contains("held by     pid 101 (\\u003A:stop-commands::app a\\rb\\nc")
                .contains("    \\u003A:stop-commands::a\\rb\\nc \\u001B[31mred");
        // the header, the key, holder, waiter, code heading, one site, blank, chain heading, the chain, and the end
        assertThat(out.split("\n", -1)).hasSize(11);
    }

    @Test
    void markdownKeepsOneRowPerKeyWithSixCellsAndNoMarkup() throws Exception {
        String md = write(LocksReport.Format.MARKDOWN);
        assertNoRawControls(md);
        String html = HtmlRenderer.builder()
                .extensions(List.of(TablesExtension.create()))
                .build()
                .render(Parser.builder()
                        .extensions(List.of(TablesExtension.create()))
                        .build()
                        .parse(md));
        assertThat(html)
                .doesNotContain("<a ")
                .doesNotContain("<img")
                .doesNotContain("<script")
                .doesNotContainPattern("<h[124-6]");
        assertThat(html.split("<h3>", -1)).hasSize(2); // the one heading, holding the whole target
        List<List<String>> rows = new ArrayList<>();
        for (String tr : html.substring(html.indexOf("<tbody>")).split("<tr>", -1)) {
            List<String> cells = new ArrayList<>();
            Matcher m = Pattern.compile("<td>(.*?)</td>", Pattern.DOTALL).matcher(tr);
            while (m.find()) {
                cells.add(m.group(1));
            }
            if (!cells.isEmpty()) {
                rows.add(cells);
            }
        }
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).hasSize(6);
        assertThat(rows.get(0).get(3)).startsWith("pid 101 (::stop-commands::app a b c \\u001B[31mred");
        assertThat(rows.get(0).get(5)).contains("<code>::stop-commands::a b c \\u001B[31mred");
    }
}
