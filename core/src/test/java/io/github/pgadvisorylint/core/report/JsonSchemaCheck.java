package io.github.pgadvisorylint.core.report;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Validates JSON reports against the documented schema, {@code docs/report.schema.json} at the repository root. */
final class JsonSchemaCheck {

    /** The schema file, from the core module's directory (Surefire's working directory). */
    static final Path SCHEMA_FILE = Path.of("..", "docs", "report.schema.json");

    private static final Schema SCHEMA = load();

    private JsonSchemaCheck() {}

    private static Schema load() {
        try {
            Schema schema = SchemaRegistry.withDefaultDialect(
                            SpecificationVersion.DRAFT_2020_12, b -> b.schemaLoader(l -> l.fetchRemoteResources(false)))
                    .getSchema(Files.readString(SCHEMA_FILE), InputFormat.JSON);
            schema.initializeValidators();
            return schema;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param json a JSON report
     * @return one line per violation; empty when valid
     */
    static List<String> validate(String json) {
        return SCHEMA.validate(json, InputFormat.JSON).stream()
                .map(e -> e.getInstanceLocation() + ": " + e.getMessage())
                .toList();
    }
}
