package io.github.pgadvisorylint.core.tool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The tool's identity as every report states it: name, version and home page (SARIF 2.1.0
 * {@code toolComponent}, section 3.19).
 */
public final class ToolInfo {

    /** The tool's name, {@code pg-advisory-lint}; SARIF {@code tool.driver.name} (section 3.19.8). */
    public static final String NAME = "pg-advisory-lint";

    /** The project's home page; SARIF {@code tool.driver.informationUri} (section 3.19.17). */
    public static final String INFORMATION_URI = "https://github.com/pg-advisory-lint/pg-advisory-lint";

    private static final String VERSION = loadVersion();

    private ToolInfo() {}

    /**
     * @param ruleId a rule id, e.g. {@code lock-in-limit-query}
     * @return the address of the rule's documentation page as the repository keeps it; SARIF
     *     {@code helpUri} (section 3.49.12) and the link of the Maven site report
     */
    public static String ruleHelpUri(String ruleId) {
        return INFORMATION_URI + "/blob/main/rules/src/main/resources/docs/" + ruleId + ".md";
    }

    /**
     * @return the version of the {@code core} artifact, e.g. {@code 0.1.0-SNAPSHOT}: from the
     *     Maven-filtered resource {@code tool.properties}, else the jar manifest's
     *     {@code Implementation-Version}, else {@code 0.0.0-unknown}; never null
     */
    public static String version() {
        return VERSION;
    }

    private static String loadVersion() {
        try (InputStream in = ToolInfo.class.getResourceAsStream("tool.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "").trim();
                if (!v.isEmpty() && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tool.properties", e);
        }
        String manifest = ToolInfo.class.getPackage().getImplementationVersion();
        return manifest != null ? manifest : "0.0.0-unknown";
    }
}
