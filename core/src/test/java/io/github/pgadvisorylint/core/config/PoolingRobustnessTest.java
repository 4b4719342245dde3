package io.github.pgadvisorylint.core.config;

import static io.github.pgadvisorylint.core.config.PoolingTestSupport.at;
import static io.github.pgadvisorylint.core.config.PoolingTestSupport.scan;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PoolingRobustnessTest {

    private static final String Y = "docker-compose.yml";

    private static void oneParseWarning(ConfigScan s, int line) {
        assertThat(s.notifications()).hasSize(1);
        Notification n = s.notifications().get(0);
        assertThat(n.kind()).isEqualTo("config-parse-error");
        assertThat(n.level()).isEqualTo(Severity.WARNING);
        assertThat(n.region().startLine()).isEqualTo(line);
    }

    @Test
    void tabIndentationIsALocatedWarningAndTheRestIsStillScanned() {
        String t = "services:\n  app:\n    environment:\n\t\tPOOL_MODE: transaction\n"
                + "    url: jdbc:postgresql://db:6432/app\n";
        ConfigScan s = scan(Y, t);
        oneParseWarning(s, 4);
        assertThat(s.notifications().get(0).message()).startsWith("YAML could not be parsed");
        assertThat(s.evidence())
                .extracting(PoolingEvidence::region)
                .containsExactly(at(Y, t, "transaction"), at(Y, t, "6432"));
        assertThat(s.evidence().get(0).strength()).isEqualTo(EvidenceStrength.DECLARED);
    }

    @Test
    void unclosedQuoteKeepsTheDocumentsBeforeIt() {
        String t = "spring:\n  datasource:\n    url: jdbc:postgresql://db:6432/app\n---\nkey: \"never closed\n"
                + "# url: jdbc:postgresql://db:6432/commented\nother: jdbc:postgresql://pgbouncer/app\n";
        ConfigScan s = scan("application.yml", t);
        assertThat(s.notifications()).hasSize(1);
        assertThat(s.notifications().get(0).region().startLine()).isGreaterThanOrEqualTo(5);
        // the first document is read as YAML; the rest line by line, without its comment line
        assertThat(s.evidence())
                .extracting(PoolingEvidence::region)
                .containsExactly(at("application.yml", t, "6432"), at("application.yml", t, "pgbouncer"));
    }

    @Test
    @Timeout(10)
    void billionLaughsFinishesFastWithANotification() {
        StringBuilder b =
                new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char prev = 'a';
        for (char c = 'b'; c <= 'j'; c++) {
            b.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                b.append(i == 0 ? "" : ",").append('*').append(prev);
            }
            b.append("]\n");
            prev = c;
        }
        b.append("url: jdbc:postgresql://db:6432/app\n");
        ConfigScan s = scan("bomb.yaml", b.toString());
        assertThat(s.notifications()).hasSize(1);
        assertThat(s.notifications().get(0).message()).contains("aliases");
        // the line-by-line fallback still sees the URL after the bomb
        assertThat(s.evidence()).hasSize(1);
    }

    @Test
    @Timeout(10)
    void aliasFanOutBelowTheAliasLimitStaysLinear() {
        StringBuilder b = new StringBuilder("l0: &l0 [jdbc:postgresql://db:6432/app, x, y, z]\n");
        for (int level = 1; level <= 12; level++) {
            b.append("l")
                    .append(level)
                    .append(": &l")
                    .append(level)
                    .append(" [*l")
                    .append(level - 1)
                    .append(", *l")
                    .append(level - 1)
                    .append(", *l")
                    .append(level - 1)
                    .append(", *l")
                    .append(level - 1)
                    .append("]\n");
        }
        String t = b.toString();
        ConfigScan s = scan("fan.yaml", t);
        assertThat(s.evidence()).hasSize(1);
        assertThat(s.evidence().get(0).region()).isEqualTo(at("fan.yaml", t, "6432"));
    }

    @Test
    @Timeout(10)
    void deepNestingIsRefusedWithoutStackOverflow() {
        String t = "[".repeat(20_000) + "]".repeat(20_000) + "\n";
        ConfigScan s = scan("deep.yaml", t);
        oneParseWarning(s, 1);
        assertThat(s.notifications().get(0).message()).contains("nested deeper");
    }

    @Test
    @Timeout(60)
    void fiveMegabyteYamlIsScanned() {
        StringBuilder b = new StringBuilder(5_300_000);
        b.append("spring:\n  datasource:\n    url: jdbc:postgresql://db:6432/app\nitems:\n");
        int i = 0;
        while (b.length() < 5 * 1024 * 1024) {
            b.append("  - name: item-")
                    .append(i)
                    .append("\n    value: \"some value number ")
                    .append(i++)
                    .append(" with padding to make the line longer\"\n");
        }
        b.append("last:\n  url: jdbc:postgresql://pgbouncer:5432/app\n");
        String t = b.toString();
        long start = System.nanoTime();
        ConfigScan s = scan("big.yaml", t);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence()).hasSize(2);
        assertThat(s.evidence().get(1).region()).isEqualTo(at("big.yaml", t, "pgbouncer"));
        System.out.println("5 MB YAML scanned in " + took.toMillis() + " ms");
    }

    @Test
    void customTagsAreNotExecutedOrRejected() {
        String t = "a: !!java.net.URL [\"http://example.com\"]\nb: !Ref Something\n"
                + "url: !Sub \"jdbc:postgresql://${Host}:6432/app\"\n";
        ConfigScan s = scan("template.yaml", t);
        assertThat(s.notifications()).isEmpty();
        assertThat(s.evidence()).hasSize(1);
    }

    @Test
    void neverThrowsOnOddInput() {
        assertThat(scan("x.yml", "").evidence()).isEmpty();
        assertThat(scan("x.yml", "\u0000\u0001").notifications()).hasSize(1);
        assertThat(scan("x.properties", "\\").evidence()).isEmpty();
        assertThat(scan("x.properties", "url=jdbc:postgresql://").evidence()).isEmpty();
        assertThat(scan("x.properties", "url=jdbc:postgresql://[::1]:6432/app").evidence())
                .hasSize(1);
        assertThat(scan("x.properties", "url=jdbc:postgresql://db:${A:${B:6432}}/x")
                        .evidence())
                .hasSize(1);
        assertThat(scan("x.properties", "url=jdbc:postgresql://${unclosed:6432/x")
                        .notifications())
                .isEmpty();
        assertThat(scan(".env", "=\nA\nexport\n'").evidence()).isEmpty();
        assertThat(scan("pgbouncer.ini", "[databases]\nx = pool_mode=\n= =\n").evidence())
                .isEmpty();
    }

    @Test
    @Timeout(10)
    void recursiveAliasesAndRecursiveKeysAreRefusedOrReadOnce() {
        // an anchor used inside its own collection: a cycle, walked once
        String cyc = "a: &a [*a, jdbc:postgresql://db:6432/app]\nb: &b {self: *b}\n";
        ConfigScan s = scan("cycle.yaml", cyc);
        assertThat(s.evidence()).extracting(PoolingEvidence::region).containsExactly(at("cycle.yaml", cyc, "6432"));
        // a mapping used as its own key: refused (setAllowRecursiveKeys(false)), the rest read line by line
        String key = "k: &k {*k : 1}\nurl: jdbc:postgresql://db:6432/app\n";
        ConfigScan k = scan("key.yaml", key);
        assertThat(k.notifications()).extracting(Notification::kind).containsExactly("config-parse-error");
        assertThat(k.evidence()).hasSize(1);
    }
}
