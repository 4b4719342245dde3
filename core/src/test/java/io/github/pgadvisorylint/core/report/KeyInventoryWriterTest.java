package io.github.pgadvisorylint.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.keys.KeyFacts;
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
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RFC 4180 quoting, Markdown cell escaping, and the shape of each format. */
class KeyInventoryWriterTest {

    @Test
    void csvFieldsAreQuotedOnlyWhenTheyMustBe() {
        assertThat(KeyInventoryWriter.csvField("9001")).isEqualTo("9001");
        assertThat(KeyInventoryWriter.csvField("12, 77")).isEqualTo("\"12, 77\"");
        assertThat(KeyInventoryWriter.csvField("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(KeyInventoryWriter.csvField("a\nb")).isEqualTo("\"a\nb\"");
        assertThat(KeyInventoryWriter.csvField("a\rb")).isEqualTo("\"a\rb\"");
        assertThat(KeyInventoryWriter.csvField(" padded ")).isEqualTo(" padded ");
        assertThat(KeyInventoryWriter.csvField(null)).isEmpty();
    }

    @Test
    void csvHasAHeaderAndOneRowPerSiteWithCrlfAndParsesBack() throws Exception {
        String csv = write(KeyInventoryWriter.Format.CSV);
        String[] lines = csv.split("\r\n", -1);
        assertThat(lines[0]).isEqualTo(String.join(",", KeyInventoryWriter.CSV_COLUMNS));
        assertThat(lines).hasSize(4); // header, two sites, and the empty string after the last CRLF
        assertThat(lines[3]).isEmpty();
        List<String> row = parseCsvLine(lines[1]);
        assertThat(row).hasSize(KeyInventoryWriter.CSV_COLUMNS.size());
        assertThat(row.get(1)).isEqualTo("12, 77");
        assertThat(row.get(3)).isEqualTo("12");
        assertThat(row.get(13)).isEqualTo("pg_advisory_lock(\"NS\", 77)");
    }

    @Test
    void markdownEscapesPipesInCells() throws Exception {
        String md = write(KeyInventoryWriter.Format.MARKDOWN);
        assertThat(md.lines().skip(2))
                .allSatisfy(l -> assertThat(l.split("(?<!\\\\)\\|", -1)).hasSize(10));
    }

    @Test
    void textAndJsonNameThePgLocksColumns() throws Exception {
        assertThat(write(KeyInventoryWriter.Format.TEXT)).contains("classid=12 objid=77 objsubid=2");
        assertThat(write(KeyInventoryWriter.Format.JSON))
                .contains("\"classid\": 12")
                .contains("\"objsubid\": 2");
    }

    @Test
    void liveLocksMatchKnownKeysExactlyAndRunTimeKeysByTheirKnownParts() {
        SourceRegion r = new SourceRegion("A.java", 9, 20, 9, 36);
        LockKey known = new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(9001, "9001", null)));
        LockKey namespaced = new LockKey(
                KeySpace.INT_PAIR,
                List.of(KeyPart.known(12, "NS", null), KeyPart.of(KeyPart.Kind.PARAMETER, "customerId")));
        LockKey perRow = new LockKey(KeySpace.BIGINT, List.of(KeyPart.of(KeyPart.Kind.COLUMN, "id")));
        KeyInventory inventory = KeyInventory.of(new LockModel(
                List.of(
                        site("A.java#0", AdvisoryFunction.PG_ADVISORY_LOCK, known, r),
                        site("A.java#1", AdvisoryFunction.PG_ADVISORY_LOCK, namespaced, r),
                        site("A.java#2", AdvisoryFunction.PG_TRY_ADVISORY_LOCK, perRow, r)),
                List.of()));
        KeyFacts.PgLocksRow nightly = new KeyFacts.PgLocksRow(0L, 9001L, 1);
        assertThat(inventory.taking(nightly))
                .extracting(KeyInventory.Entry::value)
                .containsExactly("9001");
        assertThat(inventory.possiblyTaking(nightly))
                .extracting(KeyInventory.Entry::value)
                .containsExactly("id");
        KeyFacts.PgLocksRow customer = new KeyFacts.PgLocksRow(12L, 77L, 2);
        assertThat(inventory.taking(customer)).isEmpty();
        assertThat(inventory.possiblyTaking(customer))
                .extracting(KeyInventory.Entry::value)
                .containsExactly("12, customerId");
        KeyFacts.PgLocksRow otherNamespace = new KeyFacts.PgLocksRow(13L, 77L, 2);
        assertThat(inventory.taking(otherNamespace)).isEmpty();
        assertThat(inventory.possiblyTaking(otherNamespace)).isEmpty();
        assertThat(inventory.taking(new KeyFacts.PgLocksRow(0L, 9001L, 2)))
                .as("(0, 9001) is another key space")
                .isEmpty();
    }

    private static String write(KeyInventoryWriter.Format f) throws Exception {
        SourceRegion decl = new SourceRegion("Keys.java", 3, 5, 3, 9);
        LockKey key = new LockKey(
                KeySpace.INT_PAIR,
                List.of(
                        KeyPart.known(12, "\"NS\"", decl, "a.Keys.NS|X", null),
                        KeyPart.known(77, "77", new SourceRegion("A.java", 9, 40, 9, 42))));
        List<LockSite> sites = List.of(
                site("A.java#0", AdvisoryFunction.PG_ADVISORY_LOCK, key, new SourceRegion("A.java", 9, 20, 9, 36)),
                site("A.java#1", AdvisoryFunction.PG_ADVISORY_UNLOCK, key, new SourceRegion("A.java", 12, 20, 12, 38)));
        StringWriter out = new StringWriter();
        KeyInventoryWriter.write(KeyInventory.of(new LockModel(sites, List.of())), f, out);
        return out.toString();
    }

    private static LockSite site(String id, AdvisoryFunction fn, LockKey key, SourceRegion r) {
        return new LockSite(
                id,
                fn,
                key,
                r,
                null,
                Language.JAVA,
                ExecutionApi.JDBC_STATEMENT,
                new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1"),
                new JavaContext("A", "run", "st.execute", "st", null));
    }

    /** A strict RFC 4180 reader for one record without line breaks. */
    private static List<String> parseCsvLine(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
