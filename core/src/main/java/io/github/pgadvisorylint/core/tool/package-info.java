/**
 * The tool's identity: {@link io.github.pgadvisorylint.core.tool.ToolInfo} gives its name, version (from
 * the filtered {@code tool.properties} beside it) and home page, for the reporters, the baseline, the
 * facts cache and the command line. A leaf package, usable by every stage.
 */
package io.github.pgadvisorylint.core.tool;
