package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.AdvisoryFunction;
import io.github.pgadvisorylint.core.model.ExecutionApi;
import io.github.pgadvisorylint.core.model.JavaContext;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.KeySpace;
import io.github.pgadvisorylint.core.model.Language;
import io.github.pgadvisorylint.core.model.LockKey;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.model.SqlClause;
import io.github.pgadvisorylint.core.model.SqlContext;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code graph}: labels quoting hostile code stay one label, with no raw control character, in DOT and Mermaid. */
class LockOrderDiagramEscapingTest {

    private static final String HOSTILE =
            "hashtext('a\u001b[2J\u0007 \" ] <img src=x onerror=alert(1)> | #quot; \\\\')";

    private static LockSite site(String id, String expression, int line) {
        return new LockSite(
                id,
                AdvisoryFunction.PG_ADVISORY_LOCK,
                new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.UNKNOWN, expression))),
                new SourceRegion("A.java", line, 1, line, 9),
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext("Job\u001b[31m", "run", "st.execute", "st", null));
    }

    private static String write(LockOrderDiagram.Format format) throws Exception {
        LockSite first = site("A.java#0", HOSTILE, 3);
        LockSite second = site("A.java#1", "other", 4);
        LockModel model = new LockModel(
                List.of(first, second),
                List.of(),
                List.of(),
                PoolingSetting.AUTO,
                List.of(new LockOrderEdge(first, second, false)),
                Map.of());
        StringWriter out = new StringWriter();
        LockOrderDiagram.of(model).write(format, out);
        return out.toString();
    }

    @Test
    void dotLabelsShowControlsAndStayOneQuotedString() throws Exception {
        String dot = write(LockOrderDiagram.Format.DOT);
        assertThat(dot).doesNotContain("\u001b").doesNotContain("\u0007");
        assertThat(dot)
                .contains("[label=\"hashtext('a\\\\u001B[2J\\\\u0007 \\\" ] <img src=x onerror=alert(1)> | #quot;"
                        + " \\\\\\\\')\"];")
                .contains("[label=\"Job\\\\u001B[31m#run\"];");
    }

    @Test
    void mermaidLabelsHoldNoHtmlQuoteOrEntityFromTheCode() throws Exception {
        String mermaid = write(LockOrderDiagram.Format.MERMAID);
        assertThat(mermaid).doesNotContain("\u001b").doesNotContain("<img");
        assertThat(mermaid)
                .contains("[\"hashtext('a\\u001B[2J\\u0007 #quot; ] #lt;img src=x onerror=alert(1)#gt; #124;"
                        + " #35;quot; \\\\')\"]")
                .contains("-->|\"Job\\u001B[31m#run\"|");
    }
}
