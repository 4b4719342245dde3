package com.example.mutex;

import java.sql.SQLException;

public class ReportExporter {

    private final PgsqlMutex mutex;

    public ReportExporter(PgsqlMutex mutex) {
        this.mutex = mutex;
    }

    /** Run by every worker; only one worker exports a given report at a time. */
    public void export(long reportId) throws SQLException, InterruptedException {
        String name = "report-export:" + reportId;
        if (!mutex.acquire(name, 5_000)) {
            return;                                   // another worker is exporting this report
        }
        try {
            writeExport(reportId);
        } finally {
            if (!mutex.release(name)) {
                System.err.println("mutex " + name + " was not held at release");
            }
        }
    }

    private void writeExport(long reportId) {
        // renders the report and uploads it (omitted)
    }
}
