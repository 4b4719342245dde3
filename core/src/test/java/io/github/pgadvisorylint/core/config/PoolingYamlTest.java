package io.github.pgadvisorylint.core.config;

import static io.github.pgadvisorylint.core.config.PoolingTestSupport.at;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.declared;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.inferred;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.lines;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.scan;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceRegion;
import org.junit.jupiter.api.Test;

class PoolingYamlTest {

    private static final String Y = "src/main/resources/application.yml";
    private static final String COMPOSE = "docker-compose.yml";
    private static final String K8S = "deploy/k8s.yaml";

    @Test
    void springDatasourceUrl() {
        String t = "spring:\n  datasource:\n    url: jdbc:postgresql://db:6432/app\n    username: app\n";
        PoolingEvidence e = inferred(Y, t, "6432");
        assertThat(e.region()).isEqualTo(new SourceRegion(Y, 3, 31, 3, 35));
    }

    @Test
    void quotedAndFoldedValuesKeepExactRegions() {
        inferred(Y, "spring:\n  flyway:\n    url: \"jdbc:postgresql://db:6432/app\"\n", "6432");
        inferred(Y, "spring:\n  flyway:\n    url: 'jdbc:postgresql://db:6432/app'\n", "6432");
        String escaped = "x:\n  url: \"jdbc:postgresql://db:6432/app\\tnext\"\n";
        inferred(Y, escaped, "6432");
    }

    @Test
    void micronautQuarkusAndR2dbc() {
        inferred(Y, "datasources:\n  default:\n    url: jdbc:postgresql://pgbouncer:5432/app\n", "pgbouncer");
        inferred(Y, "quarkus:\n  datasource:\n    jdbc:\n      url: jdbc:postgresql://db:6543/app\n", "6543");
        PoolingEvidence e = inferred(Y, "spring:\n  r2dbc:\n    url: r2dbc:postgresql://db:6432/app\n", "6432");
        assertThat(e.description()).startsWith("R2DBC URL");
    }

    @Test
    void silentOnCommentsOrdinaryUrlsAndUnrelatedKeys() {
        silent(
                Y,
                "spring:\n  datasource:\n    # url: jdbc:postgresql://db:6432/app\n    url: jdbc:postgresql://postgres:5432/app\n");
        silent(Y, "myapp:\n  pool_mode: transaction\n  POOL_MODE: transaction\n  port: 6432\n");
        silent(Y, "server:\n  port: 6432\n");
    }

    @Test
    void composeEnvironmentMapAndList() {
        String t = "services:\n  pgbouncer:\n    image: edoburu/pgbouncer\n    environment:\n"
                + "      DATABASE_URL: postgres://app:pw@postgres:5432/app\n      POOL_MODE: transaction\n"
                + "  pooler:\n    image: bitnami/pgbouncer\n    environment:\n      - PGBOUNCER_POOL_MODE=statement\n"
                + "      - \"PGBOUNCER_PORT=6432\"\n";
        ConfigScan s = scan(COMPOSE, t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence()).hasSize(2);
        PoolingEvidence first = s.evidence().get(0);
        assertThat(first.mode()).isEqualTo(PoolingMode.TRANSACTION);
        assertThat(first.strength()).isEqualTo(EvidenceStrength.DECLARED);
        assertThat(first.region()).isEqualTo(at(COMPOSE, t, "transaction"));
        assertThat(first.description()).isEqualTo("POOL_MODE=transaction in the environment of service pgbouncer");
        assertThat(s.evidence().get(1).mode()).isEqualTo(PoolingMode.STATEMENT);
        assertThat(s.evidence().get(1).region()).isEqualTo(at(COMPOSE, t, "statement"));
    }

    @Test
    void composeDefaultsMergeKeysAndAppUrls() {
        String t = "x-pool: &pool\n  POOL_MODE: ${POOL_MODE:-transaction}\nservices:\n  pgbouncer:\n"
                + "    environment:\n      <<: *pool\n  app:\n    environment:\n"
                + "      SPRING_DATASOURCE_URL: jdbc:postgresql://pgbouncer:6432/app\n";
        ConfigScan s = scan(COMPOSE, t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence())
                .extracting(PoolingEvidence::strength)
                .containsExactly(EvidenceStrength.DECLARED, EvidenceStrength.INFERRED);
        assertThat(s.evidence().get(0).region()).isEqualTo(at(COMPOSE, t, "transaction"));
        assertThat(s.evidence().get(1).region()).isEqualTo(at(COMPOSE, t, "6432"));
    }

    @Test
    void sessionModeIsEvidenceOfSession() {
        String t = "services:\n  pgbouncer:\n    environment:\n      POOL_MODE: session\n";
        declared(COMPOSE, t, PoolingMode.SESSION, "session");
    }

    @Test
    void kubernetesEnvItemsConfigMapsAndMultipleDocuments() {
        String t = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
                + "        - name: pgbouncer\n          env:\n            - name: POOL_MODE\n"
                + "              value: \"transaction\"\n            - name: OTHER\n              value: statement\n"
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pgbouncer-env\ndata:\n"
                + "  PGBOUNCER_POOL_MODE: statement\n  pool_mode: session\n"
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n"
                + "  application.properties: |\n    spring.datasource.url=jdbc:postgresql://pgbouncer.db.svc:6432/app\n";
        ConfigScan s = scan(K8S, t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence()).hasSize(3);
        assertThat(s.evidence().get(0).region()).isEqualTo(at(K8S, t, "transaction"));
        assertThat(s.evidence().get(0).description()).isEqualTo("POOL_MODE=transaction in a container's env");
        assertThat(s.evidence().get(1).region()).isEqualTo(at(K8S, t, "statement", 1));
        assertThat(s.evidence().get(1).description()).isEqualTo("PGBOUNCER_POOL_MODE=statement in ConfigMap data");
        assertThat(s.evidence().get(2).region()).isEqualTo(at(K8S, t, "6432"));
    }

    @Test
    void pgbouncerIniInsideAConfigMap() {
        String t = "kind: ConfigMap\ndata:\n  pgbouncer.ini: |\n    [databases]\n    * = host=postgres port=5432\n"
                + "    [pgbouncer]\n    pool_mode = transaction\n";
        PoolingEvidence e = declared(K8S, t, PoolingMode.TRANSACTION, "transaction");
        assertThat(e.region()).isEqualTo(new SourceRegion(K8S, 7, 17, 7, 28));
    }

    @Test
    void operatorsAndHelmValues() {
        String cnpg = "apiVersion: postgresql.cnpg.io/v1\nkind: Pooler\nspec:\n  type: rw\n  pgbouncer:\n"
                + "    poolMode: transaction\n";
        declared(K8S, cnpg, PoolingMode.TRANSACTION, "transaction");
        String zalando = "kind: postgresql\nspec:\n  enableConnectionPooler: true\n  connectionPooler:\n"
                + "    mode: transaction\n";
        declared(K8S, zalando, PoolingMode.TRANSACTION, "transaction");
        declared(
                "values.yaml", "pgbouncer:\n  config:\n    pool_mode: statement\n", PoolingMode.STATEMENT, "statement");
        silent("values.yaml", "worker:\n  mode: transaction\n");
    }

    @Test
    void sameUrlTwiceGivesTwoRegionsInOrder() {
        String t = "spring:\n  flyway:\n    url: jdbc:postgresql://db:6432/app\n  datasource:\n"
                + "    url: jdbc:postgresql://db:6432/app\n";
        ConfigScan s = scan(Y, t);
        assertThat(lines(s)).containsExactly(3, 5);
    }

    @Test
    void crlfYaml() {
        String t = "spring:\r\n  datasource:\r\n    url: jdbc:postgresql://db:6432/app\r\n";
        PoolingEvidence e = inferred(Y, t, "6432");
        assertThat(e.region()).isEqualTo(new SourceRegion(Y, 3, 31, 3, 35));
    }

    @Test
    void nonAsciiBeforeTheValueCountsUtf16Columns() {
        String t = "caf\u00e9: \"\uD83D\uDE00\"\nurl: jdbc:postgresql://db:6432/app # \uD83D\uDE00\n\uD83D\uDE00: 1\n"
                + "x: \uD83D\uDE00 jdbc:postgresql://db:6432/y\n";
        ConfigScan s = scan(Y, t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence())
                .extracting(PoolingEvidence::region)
                .containsExactly(at(Y, t, "6432", 0), at(Y, t, "6432", 1));
    }
}
