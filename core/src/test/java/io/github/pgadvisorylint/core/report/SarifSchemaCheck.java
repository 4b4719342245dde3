package io.github.pgadvisorylint.core.report;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;

/**
 * Offline SARIF 2.1.0 schema validation for core's own tests. The same setup as
 * {@code io.github.pgadvisorylint.fixtures.SarifSchema}, which other modules use; core cannot depend
 * on test-fixtures (test-fixtures depends on core), hence this small copy.
 */
final class SarifSchemaCheck {

    private static final String PREFIX = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/";
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(
                    SpecificationVersion.DRAFT_7,
                    b -> b.schemaLoader(l -> l.fetchRemoteResources(false)
                            .schemaIdResolvers(ids -> ids.mapPrefix(PREFIX, "classpath:schema/"))))
            .getSchema(SchemaLocation.of(PREFIX + "sarif-schema-2.1.0.json"));

    private SarifSchemaCheck() {}

    static List<String> violations(String json) {
        return SCHEMA.validate(json, InputFormat.JSON).stream()
                .map(e -> e.getInstanceLocation() + ": " + e.getMessage())
                .toList();
    }
}
