/**
 * Evidence of how connections are pooled, read from configuration files: PgBouncer ini files,
 * {@code .properties}, YAML (Spring, Quarkus, Micronaut, compose files, Kubernetes manifests),
 * {@code .env} files and XML. Entry point: {@link io.github.pgadvisorylint.core.config.PoolingEvidenceScanner}.
 *
 * <p>Why it matters (RULES.md F10): PgBouncer never supports session-level advisory locks in
 * transaction pooling; see PgBouncer's documentation, "Features" (the SQL feature map for pooling
 * modes) and "Configuration" ({@code pool_mode}).
 */
package io.github.pgadvisorylint.core.config;
