package io.github.pgadvisorylint.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.model.LockLifecycle;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;

/** Checks that what a front end reports points into the file it read. */
final class Located {

    private Located() {}

    /**
     * @param facts what the front end gave
     * @param file  the file as written
     */
    static void inFile(FileFacts facts, SourceFile file) {
        assertThat(facts.path()).isEqualTo(file.path());
        for (Notification n : facts.notifications()) {
            inFile(n.region(), file, n.kind() + ": " + n.message());
        }
        for (LockSite s : facts.sites()) {
            inFile(s.region(), file, "site " + s.id());
        }
        for (LockLifecycle l : facts.lifecycles()) {
            if (l.releaseRegion() != null) {
                inFile(l.releaseRegion(), file, "release of " + l.acquisition().id());
            }
        }
    }

    private static void inFile(SourceRegion r, SourceFile file, String what) {
        assertThat(r.path()).as(what).isEqualTo(file.path());
        assertThat(r.endLine()).as(what + " at " + r).isLessThanOrEqualTo(file.lineCount());
        assertThat(r.startColumn())
                .as(what + " at " + r)
                .isLessThanOrEqualTo(file.lineText(r.startLine()).length() + 1);
        assertThat(r.endColumn())
                .as(what + " at " + r)
                .isLessThanOrEqualTo(file.lineText(r.endLine()).length() + 1);
    }
}
