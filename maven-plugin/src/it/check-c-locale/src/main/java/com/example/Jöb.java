package com.example;

/** A file whose name is not ASCII; its unlock is skipped by an exception, so the build must fail. */
class NightlyJob {
    void run(java.sql.Statement st) throws Exception {
        st.execute("SELECT pg_advisory_lock(314)");
        work();
        st.execute("SELECT pg_advisory_unlock(314)");
    }

    void work() {
    }
}
