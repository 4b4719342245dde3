package com.example.search;

import java.time.Duration;
import reactor.core.publisher.Mono;

public class SearchReindexer {

    private static final long REINDEX_KEY = 7_300_001L;

    private final AdvisoryLocker locker;
    private final IndexSettings settings;

    public SearchReindexer(AdvisoryLocker locker, IndexSettings settings) {
        this.locker = locker;
        this.settings = settings;
    }

    /** Lock and settings are fetched concurrently; a failed lookup cancels the lock still in flight. */
    public Mono<Long> reindex(String index) {
        return Mono.zip(locker.acquire(REINDEX_KEY), settings.load(index))
            .flatMap(pair -> Mono.usingWhen(
                Mono.just(pair.getT1()),
                guard -> rebuild(index, pair.getT2()),
                LockGuard::release))
            .timeout(Duration.ofSeconds(30));
    }

    private Mono<Long> rebuild(String index, String settingsJson) {
        return Mono.just(0L); // stream documents into the new index
    }

    public interface IndexSettings {
        Mono<String> load(String index);
    }
}
