package io.github.pgadvisorylint.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The facts the model states per site for rules: its role, whether it lies in test sources, and the
 * path findings about it; and the site lists derived from the roles.
 */
class SiteRoleTest {

    private static final AdvisoryFunction LOCK = AdvisoryFunction.PG_ADVISORY_LOCK;
    private static final AdvisoryFunction UNLOCK = AdvisoryFunction.PG_ADVISORY_UNLOCK;
    private static final SqlContext SQL =
            new SqlContext(SqlClause.SELECT_LIST, null, false, false, 0, true, "SELECT 1");

    private int index;

    private LockSite site(
            String path,
            int line,
            AdvisoryFunction fn,
            long key,
            ExecutionApi api,
            Language language,
            JavaContext java,
            SourceRegion declaration) {
        LockKey k = new LockKey(KeySpace.BIGINT, List.of(KeyPart.known(key, Long.toString(key), null)));
        return new LockSite(
                path + "#" + index++, fn, k, SourceRegion.line(path, line), declaration, language, api, SQL, java);
    }

    private LockSite javaSite(String path, int line, ExecutionApi api, String executionCall) {
        return site(
                path, line, LOCK, 1, api, Language.JAVA, new JavaContext("T", "m", executionCall, null, null), null);
    }

    @Test
    void rolesFollowTheApiTheAnnotationAndTheHelperRegistry() {
        LockSite executed = javaSite("src/main/java/A.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        LockSite constant = javaSite("src/main/java/A.java", 5, ExecutionApi.DECLARATION, null);
        LockSite query = javaSite("src/main/java/Repo.java", 7, ExecutionApi.SPRING_DATA_QUERY, null);
        LockSite procedure = javaSite("src/main/java/Repo.java", 9, ExecutionApi.SPRING_DATA_PROCEDURE, null);
        LockSite select = javaSite("src/main/java/Mapper.java", 4, ExecutionApi.MYBATIS, null);
        LockSite sqlObject = javaSite("src/main/java/Dao.java", 4, ExecutionApi.JDBI, null);
        LockSite handle = javaSite("src/main/java/Dao.java", 8, ExecutionApi.JDBI, "handle.createQuery");
        LockSite mapperXml =
                site("src/main/resources/Mapper.xml", 6, LOCK, 1, ExecutionApi.MYBATIS, Language.XML, null, null);
        LockSite helperSql =
                javaSite("src/main/java/Locks.java", 12, ExecutionApi.JDBC_PREPARED_STATEMENT, "conn.prepareStatement");
        LockSite call = site(
                "src/main/java/Job.java",
                20,
                LOCK,
                1,
                ExecutionApi.LOCK_HELPER,
                Language.JAVA,
                new JavaContext("Job", "run", "locks.lock", "locks", null),
                helperSql.region());
        LockSite script = site("db/lock.sql", 2, LOCK, 1, ExecutionApi.SQL_FILE, Language.SQL, null, null);
        LockModel model = new LockModel(
                List.of(
                        executed, constant, query, procedure, select, sqlObject, handle, mapperXml, helperSql, call,
                        script),
                List.of(),
                List.of(),
                PoolingSetting.AUTO,
                List.of(),
                Map.of(),
                List.of(mapperXml.region()));

        assertThat(model.role(executed)).isEqualTo(SiteRole.EXECUTED);
        assertThat(model.role(constant)).isEqualTo(SiteRole.DECLARATION);
        assertThat(model.role(query)).isEqualTo(SiteRole.ANNOTATION);
        assertThat(model.role(procedure)).isEqualTo(SiteRole.ANNOTATION);
        assertThat(model.role(select)).isEqualTo(SiteRole.ANNOTATION);
        assertThat(model.role(sqlObject)).isEqualTo(SiteRole.ANNOTATION);
        assertThat(model.role(handle)).isEqualTo(SiteRole.EXECUTED); // JDBI through a Handle call runs here
        assertThat(model.role(mapperXml)).isEqualTo(SiteRole.HELPER_BODY); // named by the helper registry
        assertThat(model.role(helperSql)).isEqualTo(SiteRole.HELPER_BODY); // named by a call's declaration region
        assertThat(model.role(call)).isEqualTo(SiteRole.HELPER_CALL);
        assertThat(model.role(script)).isEqualTo(SiteRole.EXECUTED);
        assertThat(SiteRole.DECLARATION.declaredOnly()).isTrue();
        assertThat(SiteRole.ANNOTATION.declaredOnly()).isTrue();
        assertThat(SiteRole.HELPER_BODY.declaredOnly()).isFalse();

        // the helper call repeats the helper's own site with the same key: not a key site, not SQL
        assertThat(model.sqlAcquisitions()).doesNotContain(call).contains(helperSql, executed, constant);
        assertThat(model.keySites()).doesNotContain(call);
        // every fact survives the copies that add usage and path facts
        LockModel later = model.withUsage(Map.of(), List.of()).withPaths(List.of(), List.of());
        assertThat(later.role(mapperXml)).isEqualTo(SiteRole.HELPER_BODY);
        assertThat(later.helperBodies()).containsExactly(mapperXml.region());
    }

    @Test
    void testSourcesAreDecidedOncePerSite() {
        LockSite main = javaSite("src/main/java/A.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        LockSite test = javaSite("module/src/test/java/ATest.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        LockSite integration =
                javaSite("src/integrationTest/java/AIT.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        LockModel model = new LockModel(List.of(main, test, integration), List.of());
        assertThat(model.inTestSources(main)).isFalse();
        assertThat(model.inTestSources(test)).isTrue();
        assertThat(model.inTestSources(integration)).isTrue();
    }

    @Test
    void pathFindingsAreListedUnderTheirAcquisitionAndTheirRelease() {
        LockSite lock = javaSite("src/main/java/A.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        LockSite unlock = site(
                "src/main/java/A.java",
                9,
                UNLOCK,
                1,
                ExecutionApi.JDBC_STATEMENT,
                Language.JAVA,
                new JavaContext("T", "m", "st.execute", "st", null),
                null);
        LockSite other = javaSite("src/main/java/B.java", 3, ExecutionApi.JDBC_STATEMENT, "st.execute");
        PathFinding leak =
                new PathFinding(PathFinding.Kind.HELD_ON_EXCEPTION, lock, null, lock.region(), "n", List.of());
        PathFinding wrong = new PathFinding(
                PathFinding.Kind.RELEASE_ON_OTHER_CONNECTION, lock, unlock, unlock.region(), "n", List.of());
        LockModel model =
                new LockModel(List.of(lock, unlock, other), List.of()).withPaths(List.of(leak, wrong), List.of());
        assertThat(model.pathFindings(lock)).containsExactly(leak, wrong);
        assertThat(model.pathFindings(unlock)).containsExactly(wrong);
        assertThat(model.pathFindings(other)).isEmpty();
        assertThat(model.withUsage(Map.of(), List.of()).pathFindings(unlock)).containsExactly(wrong);
    }
}
