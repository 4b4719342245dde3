package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import java.io.IOException;
import java.io.Writer;

/**
 * Writes an {@link AnalysisResult} in one format. Implementations are stateless and thread-safe;
 * apart from the text summary's elapsed time, the same result always gives the same characters.
 */
public interface Reporter {

    /**
     * Writes the whole report, ending with a newline. Does not close or flush the writer.
     *
     * @param result the analysis result; paths in it are relative to its root
     * @param out    where to write; callers encode it as UTF-8 when it goes to a file
     * @throws IOException when the writer fails
     */
    void write(AnalysisResult result, Writer out) throws IOException;
}
