package io.github.pgadvisorylint.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;

/** Helpers for the pooling-evidence tests: scan a text, and the region of a needle in it. */
final class PoolingTestSupport {

    private PoolingTestSupport() {}

    static ConfigScan scan(String path, String text) {
        return new PoolingEvidenceScanner().scan(new SourceFile(path, text));
    }

    /** @return the region of the {@code occurrence}-th (0-based) {@code needle} in {@code text} */
    static SourceRegion at(String path, String text, String needle, int occurrence) {
        int i = -1;
        for (int k = 0; k <= occurrence; k++) {
            i = text.indexOf(needle, i + 1);
            assertThat(i).as("occurrence %d of %s", k, needle).isGreaterThanOrEqualTo(0);
        }
        return new SourceFile(path, text).region(i, i + needle.length());
    }

    static SourceRegion at(String path, String text, String needle) {
        return at(path, text, needle, 0);
    }

    /** Asserts exactly one piece of evidence, with these properties, and no notification. */
    static PoolingEvidence single(ConfigScan scan, PoolingMode mode, EvidenceStrength strength, SourceRegion region) {
        assertThat(scan.notifications()).isEmpty();
        assertThat(scan.evidence()).hasSize(1);
        PoolingEvidence e = scan.evidence().get(0);
        assertThat(e.mode()).isEqualTo(mode);
        assertThat(e.strength()).isEqualTo(strength);
        assertThat(e.region()).isEqualTo(region);
        return e;
    }

    static PoolingEvidence inferred(String path, String text, String needle) {
        return single(scan(path, text), PoolingMode.TRANSACTION, EvidenceStrength.INFERRED, at(path, text, needle));
    }

    static PoolingEvidence declared(String path, String text, PoolingMode mode, String needle) {
        return single(scan(path, text), mode, EvidenceStrength.DECLARED, at(path, text, needle));
    }

    static void silent(String path, String text) {
        ConfigScan s = scan(path, text);
        assertThat(s.evidence()).isEmpty();
        assertThat(s.notifications()).isEmpty();
    }

    static List<Integer> lines(ConfigScan scan) {
        return scan.evidence().stream().map(e -> e.region().startLine()).toList();
    }
}
