package com.example.vectorizer;

/**
 * One vectorizer as stored in ai.vectorizer: a source table whose rows are embedded, the queue table that
 * triggers fill with the ids of changed rows, and the table the embeddings are written to.
 */
public record Vectorizer(
        int id,
        String sourceSchema,
        String sourceTable,
        String queueSchema,
        String queueTable,
        String targetSchema,
        String targetTable,
        int batchSize) {

    public Vectorizer {
        if (batchSize < 1 || batchSize > 2048) {
            throw new IllegalArgumentException("batch size must be between 1 and 2048: " + batchSize);
        }
    }

    public String queueTableName() {
        return quote(queueSchema) + "." + quote(queueTable);
    }

    public String sourceTableName() {
        return quote(sourceSchema) + "." + quote(sourceTable);
    }

    public String targetTableName() {
        return quote(targetSchema) + "." + quote(targetTable);
    }

    /** Quotes an identifier the way PostgreSQL's quote_ident does for names that need it. */
    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
