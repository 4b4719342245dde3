package io.github.pgadvisorylint.core.config;

import static io.github.pgadvisorylint.core.config.PoolingTestSupport.at;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.inferred;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.lines;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.scan;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.source.SourceRegion;
import org.junit.jupiter.api.Test;

class PoolingPropertiesTest {

    private static final String P = "src/main/resources/application.properties";

    @Test
    void springUrlOnPgbouncerPortPointsAtThePort() {
        String t = "server.port=8080\nspring.datasource.url=jdbc:postgresql://db.internal:6432/orders\n";
        PoolingEvidence e = inferred(P, t, "6432");
        assertThat(e.region()).isEqualTo(new SourceRegion(P, 2, 53, 2, 57));
        assertThat(e.description()).isEqualTo("JDBC URL on port 6432, PgBouncer's default port");
    }

    @Test
    void supabaseTransactionPoolerPortQuarkusAndFlyway() {
        PoolingEvidence e = inferred(
                P,
                "quarkus.datasource.jdbc.url = jdbc:postgresql://aws-0-eu-central-1.pooler"
                        + ".supabase.com:6543/postgres\n",
                "6543");
        assertThat(e.description()).contains("Supabase");
        inferred(P, "spring.flyway.url: jdbc:postgresql://db:6432/app\n", "6432");
        // Supabase's pooler is remote: 6543 on this machine is a tunnel or a local server (PgBouncer's 6432 stays)
        silent(P, "jdbc.dburl=jdbc\\:postgresql\\://localhost\\:6543/cds\n");
        silent(P, "spring.datasource.url=jdbc:postgresql://127.0.0.1:6543/app\n");
        inferred(P, "spring.datasource.url=jdbc:postgresql://localhost:6432/app\n", "6432");
    }

    @Test
    void poolerHostNames() {
        PoolingEvidence e = inferred(
                P,
                "spring.datasource.url=jdbc:postgresql://orders-pgbouncer.prod.svc:5432/orders\n",
                "orders-pgbouncer.prod.svc");
        assertThat(e.description())
                .isEqualTo("JDBC URL to host orders-pgbouncer.prod.svc, named as a connection pooler");
        inferred(
                P,
                "db.url=postgresql://app:secret@ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech/neondb"
                        + "?sslmode=require\n",
                "ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech");
    }

    @Test
    void prepareThresholdZeroInTheUrlOrAsDriverProperty() {
        String t = "spring.datasource.url=jdbc:postgresql://db:5432/app?sslmode=disable&prepareThreshold=0\n";
        PoolingEvidence e = inferred(P, t, "prepareThreshold=0");
        assertThat(e.description()).contains("prepareThreshold=0");
        inferred(P, "spring.datasource.hikari.data-source-properties.prepareThreshold=0\n", "0");
        silent(P, "spring.datasource.url=jdbc:postgresql://db:5432/app?prepareThreshold=5\n");
        silent(P, "spring.datasource.hikari.data-source-properties.prepareThreshold=3\n");
    }

    @Test
    void prepareThresholdZeroOnThisMachinesPostgresPortIsNoPooler() {
        silent(P, "spring.datasource.url=jdbc:postgresql://localhost:5432/app?prepareThreshold=0\n");
        silent(P, "spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/app?prepareThreshold=0\n");
        // another host, or this machine on the pooler's port, stays evidence
        inferred(P, "spring.datasource.url=jdbc:postgresql://db:5432/app?prepareThreshold=0\n", "prepareThreshold=0");
        inferred(P, "spring.datasource.url=jdbc:postgresql://localhost:6432/app?prepareThreshold=0\n", "6432");
    }

    @Test
    void placeholdersCountAsTheirDefault() {
        String t = "spring.datasource.url=jdbc:postgresql://${DB_HOST:localhost}:${DB_PORT:6432}/${DB_NAME:app}\n";
        PoolingEvidence e = inferred(P, t, "6432");
        assertThat(e.region().startColumn()).isEqualTo(t.indexOf("6432") + 1);
        inferred(P, "url=jdbc:postgresql://${DB_HOST:my-pgbouncer}/app\n", "my-pgbouncer");
        silent(P, "spring.datasource.url=jdbc:postgresql://${DB_HOST}:${DB_PORT}/app\n");
        silent(P, "spring.datasource.url=jdbc:postgresql://${DB_HOST:localhost}:${DB_PORT:5432}/app\n");
    }

    @Test
    void wholeUrlAsPlaceholderDefault() {
        String t = "spring.datasource.url=${JDBC_URL:jdbc:postgresql://pgbouncer:6432/app}\n";
        inferred(P, t, "6432");
    }

    @Test
    void multiHostUrlsCountWhenAnyHostMatches() {
        String t = "url=jdbc:postgresql://primary:5432,replica:6432/app?targetServerType=any\n";
        inferred(P, t, "6432");
        inferred(P, "url=jdbc:postgresql://primary:5432,pgbouncer-ro:5432/app\n", "pgbouncer-ro");
        silent(P, "url=jdbc:postgresql://primary:5432,replica:5432/app\n");
    }

    @Test
    void silentOnOrdinaryPostgresAndComments() {
        silent(P, "spring.datasource.url=jdbc:postgresql://localhost:5432/app\n");
        silent(P, "spring.datasource.url=jdbc:postgresql://postgres/app\n");
        silent(P, "spring.datasource.url=jdbc:postgresql:app\n");
        silent(P, "# spring.datasource.url=jdbc:postgresql://db:6432/app\n! url=jdbc:postgresql://db:6432/app\n");
        silent(P, "server.port=6432\npool_mode=transaction\nPOOL_MODE=transaction\n");
    }

    @Test
    void escapesAndContinuationLinesKeepExactRegions() {
        String t = "spring.datasource.url=jdbc\\:postgresql\\://db\\:6432/app\n";
        PoolingEvidence e = inferred(P, t, "6432");
        assertThat(e.region()).isEqualTo(at(P, t, "6432"));
        String c = "spring.datasource.url=jdbc:postgresql://db:\\\n    6432/app\n";
        PoolingEvidence e2 = inferred(P, c, "6432");
        assertThat(e2.region().startLine()).isEqualTo(2);
        // a comment line ending in a backslash does not continue
        silent(P, "# comment \\\nurl=jdbc:postgresql://db:5432/app\n");
    }

    @Test
    void theSameUrlTwiceGivesTwoPiecesOfEvidenceInOrder() {
        String t =
                "spring.flyway.url=jdbc:postgresql://db:6432/app\nspring.datasource.url=jdbc:postgresql://db:6432/app\n";
        ConfigScan s = scan(P, t);
        assertThat(lines(s)).containsExactly(1, 2);
        assertThat(s.evidence().get(0).region()).isEqualTo(at(P, t, "6432", 0));
        assertThat(s.evidence().get(1).region()).isEqualTo(at(P, t, "6432", 1));
    }

    @Test
    void crlfProperties() {
        String t = "a=b\r\nspring.datasource.url=jdbc:postgresql://db:6432/app\r\n";
        PoolingEvidence e = inferred(P, t, "6432");
        assertThat(e.region()).isEqualTo(new SourceRegion(P, 2, 44, 2, 48));
    }
}
