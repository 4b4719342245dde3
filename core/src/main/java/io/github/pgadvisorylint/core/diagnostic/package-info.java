/**
 * What the tool says and how loudly: {@link io.github.pgadvisorylint.core.diagnostic.Severity} (shared by
 * findings and notifications) and {@link io.github.pgadvisorylint.core.diagnostic.Notification} (a file
 * that could not be read or parsed, SQL analysed only lexically). A leaf package: it depends on
 * {@code core.source} for regions and on nothing else in {@code core}, so every stage may report.
 */
package io.github.pgadvisorylint.core.diagnostic;
