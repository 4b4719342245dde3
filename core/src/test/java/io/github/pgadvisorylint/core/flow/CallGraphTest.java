package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.github.javaparser.StaticJavaParser;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link CallGraph}: a call's names resolved through the class hierarchy of the project's own types. */
class CallGraphTest {

    private static CallGraph graph(String source) {
        return new CallGraph(FlowLowering.lower(
                StaticJavaParser.parse(source),
                new IdentityHashMap<>(),
                new HashSet<>(),
                c -> Set.of(),
                n -> null,
                n -> {}));
    }

    private static List<String> keys(List<MethodFlow> flows) {
        return flows.stream().map(MethodFlow::key).toList();
    }

    private static final String HIERARCHY = """
            interface Store { void save(long id); default void saveAll(long a) { save(a); } }
            class JdbcStore implements Store { public void save(long id) { } }
            class CachedStore extends JdbcStore { public void save(long id) { super.save(id); } }
            class Audit { void save(long id) { } }
            abstract class Job { void run() { work(); } abstract void work(); }
            class Purge extends Job { void work() { } }
            class Twice { void put(long a) { } void put(String s) { } }
            """;

    @Test
    void anInterfaceCallRunsEveryImplementationInTheProject() {
        assertThat(keys(graph(HIERARCHY).resolve(List.of("Store.save/1", "*.save/1"))))
                .containsExactly("CachedStore.save/1", "JdbcStore.save/1");
    }

    @Test
    void aClassCallRunsItsOwnMethodAndTheOverridesBelowIt() {
        assertThat(keys(graph(HIERARCHY).resolve(List.of("JdbcStore.save/1"))))
                .containsExactly("CachedStore.save/1", "JdbcStore.save/1");
        assertThat(keys(graph(HIERARCHY).resolve(List.of("CachedStore.save/1"))))
                .containsExactly("CachedStore.save/1");
    }

    @Test
    void anInheritedMethodIsTheNearestSupertypes() {
        assertThat(keys(graph(HIERARCHY).resolve(List.of("CachedStore.saveAll/1"))))
                .as("a default method of an interface two levels up")
                .containsExactly("Store.saveAll/1");
        assertThat(keys(graph(HIERARCHY).resolve(List.of("Job.work/0", "*.work/0"))))
                .as("an abstract method: its implementation")
                .containsExactly("Purge.work/0");
    }

    @Test
    void aJdkClassReceiverNeverRunsAProjectMethodOfTheSameName() {
        CallGraph g = graph("class SessionMutex { boolean tryLock() { return true; } }");
        assertThat(keys(g.resolve(List.of("Unknown.tryLock/0", "*.tryLock/0"))))
                .containsExactly("SessionMutex.tryLock/0");
        assertThat(g.resolve(List.of("ReentrantLock.tryLock/0", "*.tryLock/0")))
                .as("dispatchLock.tryLock() on a java.util.concurrent.locks.ReentrantLock")
                .isEmpty();
    }

    @Test
    void overloadsOfOneArityAndUnknownTypesResolveToNothingOrByUniqueName() {
        CallGraph g = graph(HIERARCHY);
        assertThat(g.resolve(List.of("Twice.put/1", "*.put/1"))).isEmpty();
        assertThat(g.resolve(List.of("*.save/1")))
                .as("four methods of that name")
                .isEmpty();
        assertThat(keys(g.resolve(List.of("Unknown.work/0", "*.work/0")))).containsExactly("Purge.work/0");
        assertThat(g.unique(call(List.of("Store.save/1"))))
                .as("two implementations")
                .isNull();
    }

    private static FlowEvent call(List<String> callee, String... argTypes) {
        return new FlowEvent(FlowEvent.Kind.CALL, null, null, null, callee, null, Arrays.asList(argTypes), false);
    }

    private static List<List<String>> paramTypes(List<MethodFlow> flows) {
        return flows.stream().map(MethodFlow::paramTypes).toList();
    }

    @Test
    void overloadsOfOneArityAreToldApartByTheArgumentsDeclaredTypes() {
        CallGraph g = graph(HIERARCHY);
        List<String> put = List.of("Twice.put/1", "*.put/1");

        assertThat(paramTypes(g.resolve(call(put, "long")))).containsExactly(List.of("long"));
        assertThat(paramTypes(g.resolve(call(put, "String")))).containsExactly(List.of("String"));
        assertThat(paramTypes(g.resolve(call(put, "int"))))
                .as("an int widens to long, not to String")
                .containsExactly(List.of("long"));
        assertThat(g.resolve(call(put, (String) null)))
                .as("a type nobody declared")
                .isEmpty();
        assertThat(g.resolve(call(put, "Connection")))
                .as("no overload takes it")
                .isEmpty();
    }

    @Test
    void anInterfacesAbstractOverloadsAreChosenInEachImplementation() {
        CallGraph g = graph("""
                interface Guard { void lock(long k); void lock(String name); }
                class PgGuard implements Guard { public void lock(long k) { } public void lock(String name) { } }
                class NoopGuard implements Guard { public void lock(long k) { } public void lock(String name) { } }
                """);

        assertThat(g.resolve(call(List.of("Guard.lock/1"), "long")))
                .extracting(MethodFlow::typeName, MethodFlow::paramTypes)
                .containsExactly(tuple("NoopGuard", List.of("long")), tuple("PgGuard", List.of("long")));
    }

    @Test
    void theChosenOverloadBringsItsOverridesAndIsFoundInASupertype() {
        CallGraph g = graph("""
                class Base { void put(long a) { } void put(String s) { } }
                class Sub extends Base { void put(long a) { } void put(String s) { } }
                class Kid extends Base { void other() { } }
                class Other { void take(Object o) { } void take(java.util.List<String> l) { } }
                """);

        assertThat(g.resolve(call(List.of("Base.put/1"), "String")))
                .extracting(MethodFlow::typeName, MethodFlow::paramTypes)
                .containsExactly(tuple("Base", List.of("String")), tuple("Sub", List.of("String")));
        assertThat(g.resolve(call(List.of("Kid.put/1"), "long")))
                .extracting(MethodFlow::typeName, MethodFlow::paramTypes)
                .containsExactly(tuple("Base", List.of("long")));
        assertThat(paramTypes(g.resolve(call(List.of("Other.take/1"), "List<Long>"))))
                .as("type arguments are erased; an exact erasure beats Object")
                .containsExactly(List.of("List"));
        assertThat(paramTypes(g.resolve(call(List.of("Other.take/1"), "Connection"))))
                .as("anything is an Object")
                .containsExactly(List.of("Object"));
    }

    @Test
    void aCallOnAJdkFunctionalInterfaceNeverResolvesByName() {
        assertThat(graph(HIERARCHY).resolve(List.of("Runnable.work/0", "*.work/0")))
                .isEmpty();
    }

    @Test
    void aCallOnALibraryTypeTheCatalogModelsNeverResolvesToAProjectMethodOfTheSameName() {
        CallGraph g = graph("class Jobs { <T> T inTransaction(Object work) { return null; } }\n");
        assertThat(g.resolve(List.of("Jdbi.inTransaction/1", "*.inTransaction/1")))
                .as("Jdbi's own method runs")
                .isEmpty();
        assertThat(keys(g.resolve(List.of("Unknown.inTransaction/1", "*.inTransaction/1"))))
                .as("a type nothing says anything about still resolves by the unique name")
                .containsExactly("Jobs.inTransaction/1");
    }

    @Test
    void tooManyImplementationsSayNothing() {
        StringBuilder source = new StringBuilder("interface Sink { void put(long id); }\n");
        for (int i = 0; i <= CallGraph.MAX_TARGETS; i++) {
            source.append("class Sink").append(i).append(" implements Sink { public void put(long id) { } }\n");
        }
        assertThat(graph(source.toString()).resolve(List.of("Sink.put/1"))).isEmpty();
    }
}
