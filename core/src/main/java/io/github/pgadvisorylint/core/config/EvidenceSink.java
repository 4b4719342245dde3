package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Collects the evidence and notifications of one file, in file offsets; sorts and de-duplicates them at the end. */
final class EvidenceSink {

    static final String PARSE_ERROR = "config-parse-error";
    private static final int MAX_NOTIFICATIONS = 5;

    private final SourceFile file;
    private final TreeSet<PoolingEvidence> evidence = new TreeSet<>();
    private final List<Notification> notifications = new ArrayList<>();
    private int suppressedNotifications;

    EvidenceSink(SourceFile file) {
        this.file = file;
    }

    SourceFile file() {
        return file;
    }

    void declared(PoolingMode mode, int start, int end, String description) {
        evidence.add(new PoolingEvidence(mode, EvidenceStrength.DECLARED, file.region(start, end), description));
    }

    void inferred(int start, int end, String description) {
        evidence.add(new PoolingEvidence(
                PoolingMode.TRANSACTION, EvidenceStrength.INFERRED, file.region(start, end), description));
    }

    /** A located {@code config-parse-error} warning; after five, the rest are only counted. */
    void parseProblem(int offset, String message) {
        if (notifications.size() >= MAX_NOTIFICATIONS) {
            suppressedNotifications++;
            return;
        }
        String m = message.length() > 240 ? message.substring(0, 240) + "…" : message;
        notifications.add(new Notification(Severity.WARNING, PARSE_ERROR, m, file.region(offset, offset)));
    }

    ConfigScan result() {
        List<Notification> notes = new ArrayList<>(notifications);
        if (suppressedNotifications > 0) {
            Notification last = notes.get(notes.size() - 1);
            notes.set(
                    notes.size() - 1,
                    new Notification(
                            last.level(),
                            last.kind(),
                            last.message() + " (" + suppressedNotifications
                                    + " more problem(s) in this file not listed)",
                            last.region()));
        }
        notes.sort(null);
        return new ConfigScan(new ArrayList<>(evidence), notes);
    }
}
