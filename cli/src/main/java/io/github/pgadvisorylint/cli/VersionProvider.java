package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.tool.ToolInfo;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the tool's version and the Java runtime it runs on. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            ToolInfo.NAME + " " + ToolInfo.version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
