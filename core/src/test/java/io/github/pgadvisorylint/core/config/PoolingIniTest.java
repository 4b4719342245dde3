package io.github.pgadvisorylint.core.config;

import static io.github.pgadvisorylint.core.config.PoolingTestSupport.at;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.declared;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.scan;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceRegion;
import org.junit.jupiter.api.Test;

class PoolingIniTest {

    private static final String INI = "pgbouncer.ini";

    @Test
    void globalPoolModeInPgbouncerSectionIsDeclaredAtTheValue() {
        String t = "[databases]\napp = host=db port=5432\n\n[pgbouncer]\nlisten_port = 6432\npool_mode = transaction\n";
        PoolingEvidence e = declared(INI, t, PoolingMode.TRANSACTION, "transaction");
        assertThat(e.region()).isEqualTo(new SourceRegion(INI, 6, 13, 6, 24));
        assertThat(e.description()).isEqualTo("pool_mode = transaction in [pgbouncer]");
    }

    @Test
    void statementAndSessionModes() {
        declared(INI, "[pgbouncer]\npool_mode=statement\n", PoolingMode.STATEMENT, "statement");
        declared(INI, "[pgbouncer]\n  POOL_MODE =  Session  \n", PoolingMode.SESSION, "Session");
    }

    @Test
    void perDatabaseAndPerUserPoolModeInsideTheConnectionString() {
        String t = "[databases]\nmydb = host=10.0.0.5 port=5432 dbname=mydb pool_mode=transaction\n"
                + "other = host=db dbname='my db' pool_mode = 'statement'\n"
                + "[users]\nreporting = pool_mode=session max_user_connections=5\n";
        ConfigScan s = scan(INI, t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence())
                .extracting(PoolingEvidence::mode)
                .containsExactly(PoolingMode.TRANSACTION, PoolingMode.STATEMENT, PoolingMode.SESSION);
        assertThat(s.evidence().get(0).region()).isEqualTo(at(INI, t, "transaction"));
        assertThat(s.evidence().get(0).description())
                .isEqualTo("pool_mode=transaction for database mydb in [databases]");
        assertThat(s.evidence().get(1).region()).isEqualTo(at(INI, t, "statement"));
        assertThat(s.evidence().get(2).region()).isEqualTo(at(INI, t, "session"));
        assertThat(s.evidence().get(2).description()).isEqualTo("pool_mode=session for user reporting in [users]");
    }

    @Test
    void anyIniOrConfWithAPgbouncerSectionIsRead() {
        String t = "; PgBouncer for the app\n[pgbouncer]\npool_mode = transaction\n";
        declared("deploy/pooler.conf", t, PoolingMode.TRANSACTION, "transaction");
        declared("deploy/pooler.ini", t, PoolingMode.TRANSACTION, "transaction");
    }

    @Test
    void silentOnOtherSectionsCommentsAndUnknownValues() {
        silent(INI, "[other]\npool_mode = transaction\n");
        silent(INI, "[pgbouncer]\n;pool_mode = transaction\n# pool_mode = transaction\n");
        silent(INI, "[pgbouncer]\npool_mode = sometimes\n");
        silent(INI, "[databases]\napp = host=db port=5432 dbname=app\n[pgbouncer]\nlisten_port = 6432\n");
        // an unrelated .conf is not read as ini, so its odd lines are no problem
        silent("nginx.conf", "server {\n  listen 80;\n  pool_mode = transaction\n}\n");
    }

    @Test
    void garbageLinesBecomeLocatedWarningsAndTheRestIsStillRead() {
        String t = "[pgbouncer\nthis is not ini\n[pgbouncer]\n%include /etc/other.ini\njunk\npool_mode = transaction\n";
        ConfigScan s = scan(INI, t);
        assertThat(s.evidence()).hasSize(1);
        assertThat(s.evidence().get(0).region()).isEqualTo(at(INI, t, "transaction"));
        assertThat(s.notifications()).extracting(n -> n.region().startLine()).containsExactly(1, 2, 5);
        assertThat(s.notifications()).allSatisfy(n -> {
            assertThat(n.kind()).isEqualTo("config-parse-error");
            assertThat(n.level()).isEqualTo(Severity.WARNING);
        });
    }

    @Test
    void manyGarbageLinesAreCappedInOneSummary() {
        StringBuilder b = new StringBuilder("[pgbouncer]\n");
        for (int i = 0; i < 20; i++) {
            b.append("garbage\n");
        }
        ConfigScan s = scan(INI, b.toString());
        assertThat(s.notifications()).hasSize(5);
        assertThat(s.notifications().get(4).message()).contains("15 more problem(s)");
    }

    @Test
    void crlfLineEndsKeepLinesAndColumns() {
        String t = "[pgbouncer]\r\nlisten_port = 6432\r\npool_mode = transaction\r\n";
        PoolingEvidence e = declared(INI, t, PoolingMode.TRANSACTION, "transaction");
        assertThat(e.region()).isEqualTo(new SourceRegion(INI, 3, 13, 3, 24));
    }
}
