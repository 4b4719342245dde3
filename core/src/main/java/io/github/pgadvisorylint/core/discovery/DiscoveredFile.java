package io.github.pgadvisorylint.core.discovery;

import java.nio.file.Path;

/**
 * A file found by {@link FileDiscovery}.
 *
 * @param path         the file on disk
 * @param relativePath the path relative to the scan root, {@code /}-separated
 * @param kind         what the analyzer reads it as
 * @param size         size in bytes at discovery time
 */
public record DiscoveredFile(Path path, String relativePath, FileKind kind, long size) {}
