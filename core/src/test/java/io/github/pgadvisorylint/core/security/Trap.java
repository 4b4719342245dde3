package io.github.pgadvisorylint.core.security;

/**
 * A class the scanned code names ({@code Class.forName}, {@code META-INF/services}): if the analyzer
 * ever loaded and initialised it, its static initialiser would set {@link #LOADED_PROPERTY}. Tests
 * check the property, never the class, so they do not initialise it themselves.
 */
public final class Trap {

    /** The system property set when this class is initialised. */
    public static final String LOADED_PROPERTY = "pg-advisory-lint.test.trap-loaded";

    static {
        System.setProperty("pg-advisory-lint.test.trap-loaded", "true");
    }

    private Trap() {}
}
