package com.example.workflow.db;

/** Namespaces (first key of the two-int form) of the application's advisory locks. */
public enum DbLock {
    MIGRATIONS(1_001),
    PRUNING(1_002),
    LICENSE_RENEWAL(1_003);

    private final int namespace;

    DbLock(int namespace) {
        this.namespace = namespace;
    }

    public int namespace() {
        return namespace;
    }
}
