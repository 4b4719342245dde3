package io.github.pgadvisorylint.core.config;

import static io.github.pgadvisorylint.core.config.PoolingTestSupport.at;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.declared;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.inferred;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.scan;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PoolingEnvAndXmlTest {

    @Test
    void dotenvPoolModeForms() {
        PoolingEvidence e =
                declared(".env", "# pooler\nPOOL_MODE=transaction\n", PoolingMode.TRANSACTION, "transaction");
        assertThat(e.region()).isEqualTo(new SourceRegion(".env", 2, 11, 2, 22));
        assertThat(e.description()).isEqualTo("POOL_MODE=transaction in a .env file");
        declared(".env.production", "export PGBOUNCER_POOL_MODE=\"statement\"\n", PoolingMode.STATEMENT, "statement");
        declared("pgbouncer.env", "POOL_MODE = session # keep session state\n", PoolingMode.SESSION, "session");
        declared(".env", "POOL_MODE=${POOL_MODE:-transaction}\n", PoolingMode.TRANSACTION, "transaction");
    }

    @Test
    void dotenvUrlsAndSilentLines() {
        inferred(".env", "DATABASE_URL=postgres://app:pw@db.internal:6432/app?sslmode=require\n", "6432");
        inferred(".env", "JDBC_URL='jdbc:postgresql://db:6432/app'\n", "6432");
        silent(".env", "# POOL_MODE=transaction\n#DATABASE_URL=postgres://db:6432/app\n");
        silent(".env", "DATABASE_URL=postgres://postgres:5432/app\npool_mode=transaction\nPOOL_MODE=\n");
    }

    @Test
    void crlfDotenv() {
        String t = "A=1\r\nPOOL_MODE=transaction\r\n";
        PoolingEvidence e = declared(".env", t, PoolingMode.TRANSACTION, "transaction");
        assertThat(e.region()).isEqualTo(new SourceRegion(".env", 2, 11, 2, 22));
    }

    @Test
    void xmlUrlsOutsideComments() {
        String t = "<beans>\n  <!-- <property name=\"url\" value=\"jdbc:postgresql://db:6432/old\"/> -->\n"
                + "  <property name=\"url\" value=\"jdbc:postgresql://db:5432/app?ssl=true&amp;prepareThreshold=0\"/>\n"
                + "</beans>\n";
        PoolingEvidence e = inferred("src/main/resources/context.xml", t, "prepareThreshold=0");
        assertThat(e.region().startLine()).isEqualTo(3);
        silent(
                "pom.xml",
                "<project><!--\n jdbc:postgresql://db:6432/app\n--><url>jdbc:postgresql://localhost:5432/app</url>"
                        + "</project>\n");
    }

    @Test
    void otherConfigIsReadLineByLineWithoutComments() {
        String t = "db {\n  # url = \"jdbc:postgresql://db:6432/old\"\n  url = \"jdbc:postgresql://db:6432/app\"\n}\n";
        ConfigScan s = scan("application.conf", t);
        assertThat(s.evidence())
                .extracting(PoolingEvidence::region)
                .containsExactly(at("application.conf", t, "6432", 1));
    }

    @Test
    void evidenceIsSortedByRegionWhateverTheSource() {
        String t = "services:\n  app:\n    environment:\n      - DB_URL=jdbc:postgresql://db:6432/a\n"
                + "  pgbouncer:\n    environment:\n      POOL_MODE: transaction\n";
        ConfigScan s = scan("compose.yaml", t);
        assertThat(s.evidence()).isSorted();
        assertThat(s.evidence())
                .extracting(PoolingEvidence::strength)
                .containsExactly(EvidenceStrength.INFERRED, EvidenceStrength.DECLARED);
    }

    @Test
    void prefilterFindsEveryMarkerIgnoringCase() {
        for (String s : new String[] {
            "pool_mode = transaction",
            "POOL_MODE=transaction",
            "poolMode: transaction",
            "JDBC:PostgreSQL://x",
            "postgres://x",
            "postgresql://x",
            "port: 6432",
            "6543",
            "PgBouncer",
            "ep-x-pooler.neon.tech",
            "connectionPooler:",
            "prepareThreshold=0"
        }) {
            assertThat(PoolingEvidenceScanner.mayHoldEvidence(s.getBytes(StandardCharsets.UTF_8)))
                    .as(s)
                    .isTrue();
        }
        assertThat(PoolingEvidenceScanner.mayHoldEvidence(
                        "server.port=8080\nspring.datasource.url=jdbc:h2:mem:x\n".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(PoolingEvidenceScanner.mayHoldEvidence(new byte[0])).isFalse();
        assertThat(PoolingEvidenceScanner.mayHoldEvidence(null)).isFalse();
        assertThat(PoolingEvidenceScanner.mayHoldEvidence(
                        "\uFEFFPOOL_MODE=transaction".getBytes(StandardCharsets.UTF_16LE)))
                .isTrue();
    }
}
