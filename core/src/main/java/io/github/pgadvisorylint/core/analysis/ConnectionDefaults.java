package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.config.AutoCommitScanner;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The connection defaults a project's configuration sets for its main pool, read from the configuration
 * files themselves whatever the prefilter said of them (they need not mention an advisory lock), so cached
 * facts change nothing here. Test resources (under the last {@code src/} of a path, {@code src/test/}) are left
 * out: they configure the tests' pool, not the application's.
 */
final class ConnectionDefaults {

    private ConnectionDefaults() {}

    /**
     * @param files the scan's files
     * @return the first setting (by path and line) that turns the main pool's auto-commit off, when no setting
     *     turns it on; else null (unset, on, or said both ways)
     */
    static AutoCommitSetting autoCommitOff(List<DiscoveredFile> files) {
        AutoCommitScanner scanner = new AutoCommitScanner();
        List<AutoCommitSetting> settings = new ArrayList<>();
        for (DiscoveredFile f : files) {
            String path = "/" + f.relativePath().toLowerCase(Locale.ROOT);
            if (f.kind() != FileKind.CONFIG
                    || path.substring(path.lastIndexOf("/src/") + 1).startsWith("src/test/")
                    || !(path.endsWith(".properties") || path.endsWith(".yml") || path.endsWith(".yaml"))) {
                continue;
            }
            SourceFile text = MigrationScan.read(f);
            if (text != null) {
                settings.addAll(scanner.scan(text));
            }
        }
        if (settings.isEmpty() || settings.stream().anyMatch(AutoCommitSetting::autoCommit)) {
            return null;
        }
        return Collections.min(settings);
    }
}
