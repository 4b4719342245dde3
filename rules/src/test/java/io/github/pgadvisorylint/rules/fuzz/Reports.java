package io.github.pgadvisorylint.rules.fuzz;

import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.io.AtomicFiles;
import io.github.pgadvisorylint.core.report.Reporter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes reports the way a scan does: through {@link AtomicFiles}, UTF-8, to a file. */
final class Reports {

    private Reports() {}

    /**
     * @param reporter the writer under test
     * @param result   what to write
     * @param file     where (replaced)
     * @return the file's content, decoded as strict UTF-8
     * @throws IOException              when the report cannot be written
     * @throws CharacterCodingException when the file is not well-formed UTF-8
     */
    static String write(Reporter reporter, AnalysisResult result, Path file) throws IOException {
        AtomicFiles.write(file, out -> reporter.write(result, out));
        return StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                .toString();
    }
}
