package com.example.metaspace.engine;

import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Copies a dataset's row into the search index. The update daemon, the annotation workers and the API all
 * call this when a dataset changes, so two of them must not write the same document at the same time.
 */
public class DatasetIndexSync {

    private static final Logger log = LoggerFactory.getLogger(DatasetIndexSync.class);
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(60);

    /** The part of the search client this class uses. */
    public interface SearchIndex {
        boolean exists(String index, String id);

        void update(String index, String id, Map<String, Object> doc);

        void create(String index, String id, Map<String, Object> doc);
    }

    private final JdbcTemplate jdbc;
    private final SearchIndex search;
    private final DbMutex datasetLocker;
    private final String indexName;

    public DatasetIndexSync(JdbcTemplate jdbc, SearchIndex search, DbMutex datasetLocker, String indexName) {
        this.jdbc = jdbc;
        this.search = search;
        this.datasetLocker = datasetLocker;
        this.indexName = indexName;
    }

    /** Waits until the index holds the dataset as it is in the database now. */
    public void syncDataset(String datasetId) throws Exception {
        datasetLocker.withLock(datasetId, LOCK_TIMEOUT, () -> {
            Map<String, Object> doc = jdbc.queryForMap(
                    "SELECT id, name, status, upload_dt, metadata, config FROM dataset WHERE id = ?", datasetId);
            if (search.exists(indexName, datasetId)) {
                search.update(indexName, datasetId, doc);
            } else {
                search.create(indexName, datasetId, doc);
            }
            log.info("Synced dataset {} to index {}", datasetId, indexName);
            return null;
        });
    }
}
