package com.example.facts;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class FactPublisher {

    public record Fact(String ns, String payload) {}

    private record LockPair(int code, boolean exclusive) {}

    private final AdvisoryWriteLock lock;
    private final NamespaceCodes codes;
    private final FactTable table;

    public interface NamespaceCodes {
        int codeFor(String namespace);
    }

    public interface FactTable {
        void insert(List<Fact> facts);
    }

    public FactPublisher(AdvisoryWriteLock lock, NamespaceCodes codes, FactTable table) {
        this.lock = lock;
        this.codes = codes;
        this.table = table;
    }

    @Transactional
    public void publish(List<Fact> facts) {
        lock.acquireGeneralPublishLock();
        table.insert(facts);
    }

    /** Conditional publish: write-lock the namespaces written to, read-lock the ones the condition read. */
    @Transactional
    public void publishIfUnchanged(List<Fact> facts, List<String> readNamespaces) {
        lock.acquireGeneralPublishLock();
        Stream.concat(
                        facts.stream().map(Fact::ns).distinct()
                                .map(ns -> new LockPair(codes.codeFor(ns), true)),
                        readNamespaces.stream().distinct()
                                .map(ns -> new LockPair(codes.codeFor(ns), false)))
                .filter(p -> p.code() != AdvisoryWriteLock.STAR_NAMESPACE_CODE)   // already held above
                .sorted(Comparator.comparingInt(LockPair::code).thenComparing(p -> !p.exclusive()))
                .filter(distinctCode())
                .forEachOrdered(p -> {
                    if (p.exclusive()) {
                        lock.acquireExclusiveTxLock(p.code()); // may: unbounded-lock-count
                    } else {
                        lock.acquireSharedTxLock(p.code()); // may: unbounded-lock-count
                    }
                });
        table.insert(facts);
    }

    /** Keeps the first pair of each code: the exclusive one sorts first, so a namespace both written and read is write-locked. */
    private static java.util.function.Predicate<LockPair> distinctCode() {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        return p -> seen.add(p.code());
    }
}
