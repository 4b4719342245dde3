package io.github.pgadvisorylint.core.model;

/** The kind of file a fact was found in. */
public enum Language {
    /** A {@code .java} source file. */
    JAVA,
    /** A {@code .sql} script. */
    SQL,
    /** A MyBatis mapper XML file (root element {@code mapper}). */
    XML
}
