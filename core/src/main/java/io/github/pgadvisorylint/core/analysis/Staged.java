package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.source.SourceFile;

/**
 * What reading one file gave, the input of the phases after it: one of a closed set of stages, so
 * every phase says what it does with each.
 */
sealed interface Staged {

    /** The prefilter ruled the file out: it cannot take part. */
    record Out() implements Staged {
        /** The one instance. */
        static final Out OUT = new Out();
    }

    /**
     * The file's facts are known without analysis: why it was skipped (too large, unreadable,
     * binary), or what the cache kept.
     *
     * @param facts its facts
     */
    record Known(FileFacts facts) implements Staged {}

    /**
     * A Java or SQL file that passed the prefilter, to analyse.
     *
     * @param file  the decoded text
     * @param lossy whether it was not valid UTF-8 (read as ISO-8859-1; the file gets a note)
     */
    record Text(SourceFile file, boolean lossy) implements Staged {}

    /**
     * A configuration file that may hold pooling or timeout evidence.
     *
     * @param file the decoded text
     */
    record Config(SourceFile file) implements Staged {}

    /**
     * A MyBatis mapper XML file (root element {@code mapper}) that mentions advisory locks.
     *
     * @param file      the decoded file
     * @param namespace its {@code namespace} attribute: the mapper interface's qualified name
     */
    record Mapper(SourceFile file, String namespace) implements Staged {}
}
