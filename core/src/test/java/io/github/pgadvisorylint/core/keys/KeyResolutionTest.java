package io.github.pgadvisorylint.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.model.KeyHash;
import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key values resolved through the whole pipeline: SQL literals and hashes, Java constants across files, bindings. */
class KeyResolutionTest {

    @TempDir
    Path root;

    private List<LockSite> sites() {
        AnalysisResult r = Analyzer.builder().threads(1).build().analyze(root, List.of(root));
        return r.model().sites();
    }

    private LockSite site(String function, int ordinal) {
        return sites().stream()
                .filter(s -> s.function().sqlName().equals(function))
                .skip(ordinal)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void sqlLiteralsCastsAndHashtext() throws Exception {
        Files.writeString(root.resolve("keys.sql"), """
                SELECT pg_advisory_lock(9001);
                SELECT pg_advisory_lock(-5::bigint);
                SELECT pg_advisory_lock(hashtext('abc'));
                SELECT pg_advisory_lock(hashtextextended('abc', 0));
                SELECT pg_advisory_lock(7, 42);
                """);
        List<LockSite> s = sites();
        assertThat(s)
                .extracting(x -> x.key().canonical())
                .containsExactly("(9001)", "(-5)", "(-785388649)", "(-6747756470228489321)", "(7, 42)");
        assertThat(s.get(2).key().parts().get(0).hash()).isEqualTo(new KeyHash(KeyHash.Function.HASHTEXT, "abc"));
    }

    @Test
    void javaConstantsAcrossFilesEnumsAndBindings() throws Exception {
        Files.createDirectories(root.resolve("a/src/com/acme/keys"));
        Files.createDirectories(root.resolve("b/src/com/acme/jobs"));
        Files.writeString(root.resolve("a/src/com/acme/keys/LockKeys.java"), """
                package com.acme.keys;
                public final class LockKeys {
                    public static final long INVOICE_RUN = 0x10_00L + 1;
                    public static final int NAMESPACE = 7;
                    public enum Job { REINDEX(4242L); private final long id; Job(long id) { this.id = id; } public long id() { return id; } }
                }
                """);
        Files.writeString(root.resolve("b/src/com/acme/jobs/Invoices.java"), """
                package com.acme.jobs;
                import com.acme.keys.LockKeys;
                import static com.acme.keys.LockKeys.NAMESPACE;
                class Invoices {
                    void run(org.springframework.jdbc.core.JdbcTemplate jdbc, java.sql.Connection c, long id) throws Exception {
                        jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, LockKeys.INVOICE_RUN);
                        var ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)");
                        ps.setInt(1, NAMESPACE);
                        ps.setInt(2, (int) id);
                        jdbc.execute("SELECT pg_advisory_xact_lock(" + LockKeys.Job.REINDEX.id() + ")");
                        jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, "invoice".hashCode());
                    }
                }
                """);
        KeyPart invoice = site("pg_try_advisory_xact_lock", 0).key().parts().get(0);
        assertThat(invoice.value()).isEqualTo(4097L);
        assertThat(invoice.originName()).isEqualTo("com.acme.keys.LockKeys.INVOICE_RUN");
        assertThat(invoice.origin().path()).isEqualTo("a/src/com/acme/keys/LockKeys.java");

        LockSite pair = site("pg_advisory_xact_lock", 0);
        assertThat(pair.key().parts().get(0).value()).isEqualTo(7L);
        assertThat(pair.key().parts().get(1).kind()).isEqualTo(KeyPart.Kind.PARAMETER);
        assertThat(pair.key().parts().get(1).expression()).isEqualTo("(int) id");

        assertThat(site("pg_advisory_xact_lock", 1).key().parts().get(0).value())
                .isEqualTo(4242L);
        KeyPart hashed = site("pg_try_advisory_xact_lock", 1).key().parts().get(0);
        assertThat(hashed.value()).isEqualTo((long) "invoice".hashCode());
        assertThat(hashed.hash().function()).isEqualTo(KeyHash.Function.STRING_HASHCODE);
    }

    @Test
    void anAliasConstantKeepsTheOriginOfTheConstantItNames() throws Exception {
        Files.createDirectories(root.resolve("src/com/acme"));
        Files.writeString(root.resolve("src/com/acme/Keys.java"), """
                package com.acme;
                public final class Keys { public static final long EXPORT = 77L; public static final long OWN = EXPORT + 1; }
                """);
        Files.writeString(root.resolve("src/com/acme/Job.java"), """
                package com.acme;
                class Job {
                    private static final long LOCK = (long) Keys.EXPORT;
                    void run(org.springframework.jdbc.core.JdbcTemplate jdbc) {
                        jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, LOCK);
                        jdbc.queryForObject("SELECT pg_advisory_xact_lock(?)", Boolean.class, Keys.OWN);
                    }
                }
                """);
        KeyPart alias = site("pg_try_advisory_xact_lock", 0).key().parts().get(0);
        assertThat(alias.value()).isEqualTo(77L);
        assertThat(alias.originName()).isEqualTo("com.acme.Keys.EXPORT");
        assertThat(alias.origin().path()).isEqualTo("src/com/acme/Keys.java");
        KeyPart computed = site("pg_advisory_xact_lock", 0).key().parts().get(0);
        assertThat(computed.value()).isEqualTo(78L);
        assertThat(computed.originName()).isEqualTo("com.acme.Keys.OWN");
    }

    @Test
    void jpaNumberedPositionalParametersAreBound() throws Exception {
        Files.writeString(root.resolve("Refunds.java"), """
                class Refunds {
                    void run(javax.persistence.EntityManager em) {
                        em.createNativeQuery("SELECT pg_advisory_xact_lock(?2, ?1)").setParameter(1, 5).setParameter(2, 40).getSingleResult();
                    }
                }
                """);
        assertThat(sites()).extracting(x -> x.key().canonical()).containsExactly("(40, 5)");
    }

    @Test
    void enumValuesWrittenInTheConstructorAndReadThroughLombokGetters() throws Exception {
        Files.writeString(root.resolve("Locks.java"), """
                import lombok.Getter;
                public enum Locks {
                    PUBLISH();
                    @Getter private final int code;
                    Locks() { this.code = 128; }
                }
                """);
        Files.writeString(root.resolve("Channel.java"), """
                @lombok.Getter
                public enum Channel { EMAIL(2600); private final long id; Channel(long id) { this.id = id; } }
                """);
        Files.writeString(root.resolve("Gate.java"), """
                class Gate {
                    void run(org.springframework.jdbc.core.JdbcTemplate jdbc) {
                        jdbc.execute("SELECT pg_advisory_xact_lock(" + Locks.PUBLISH.code() + ")");
                        jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, Channel.EMAIL.getId());
                    }
                }
                """);
        KeyPart publish = site("pg_advisory_xact_lock", 0).key().parts().get(0);
        assertThat(publish.value()).isEqualTo(128L);
        assertThat(publish.originName()).isEqualTo("Locks.PUBLISH");
        assertThat(site("pg_try_advisory_xact_lock", 0).key().parts().get(0).value())
                .isEqualTo(2600L);
    }
}
