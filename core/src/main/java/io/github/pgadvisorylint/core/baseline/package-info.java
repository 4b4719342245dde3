/**
 * Baselines: the findings a project has accepted for now, recorded by fingerprint so that only new
 * findings are reported. See {@link io.github.pgadvisorylint.core.baseline.Baseline} for the file format.
 */
package io.github.pgadvisorylint.core.baseline;
