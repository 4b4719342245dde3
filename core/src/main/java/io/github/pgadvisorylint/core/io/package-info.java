/**
 * Writing the tool's output files: {@link io.github.pgadvisorylint.core.io.AtomicFiles} replaces a report,
 * a baseline or the facts cache in one step, so a reader never sees half a file. A leaf package, usable
 * by every stage. {@link io.github.pgadvisorylint.core.io.BoundedReads} reads input files with a size
 * limit and never opens a pipe or a device.
 */
package io.github.pgadvisorylint.core.io;
