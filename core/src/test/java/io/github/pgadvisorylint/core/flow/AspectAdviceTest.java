package io.github.pgadvisorylint.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AspectAdviceTest {

    private static final String ASPECT = """
            @Aspect
            class LockAspect {
                @Around("@annotation(lock)")
                Object byParameter(ProceedingJoinPoint pjp, com.acme.JobLock lock) throws Throwable {
                    return pjp.proceed();
                }
                @Pointcut("@annotation(com.acme.Singleton) || @annotation(Exclusive)")
                void singletons() {}
                @Around("singletons()")
                Object byNamedPointcut(ProceedingJoinPoint pjp) throws Throwable {
                    return pjp.proceed();
                }
                @Around("execution(* com.acme..*(..))")
                Object byExecution(ProceedingJoinPoint pjp) throws Throwable {
                    return pjp.proceed();
                }
            }
            """;

    private static MethodDeclaration method(String source, String name) {
        CompilationUnit unit = StaticJavaParser.parse(source);
        return unit.findAll(MethodDeclaration.class).stream()
                .filter(m -> m.getNameAsString().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aPointcutSelectsTheAnnotationOfAParameterATypeOrANamedPointcut() {
        assertThat(AspectAdvice.advisedAnnotations(method(ASPECT, "byParameter")))
                .containsExactly("JobLock");
        assertThat(AspectAdvice.advisedAnnotations(method(ASPECT, "byNamedPointcut")))
                .containsExactly("Exclusive", "Singleton");
        assertThat(AspectAdvice.advisedAnnotations(method(ASPECT, "byExecution")))
                .isEmpty();
    }

    @Test
    void adviceOutsideAnAspectClassSelectsNothing() {
        String plain = ASPECT.replace("@Aspect\n", "");
        assertThat(AspectAdvice.advisedAnnotations(method(plain, "byParameter")))
                .isEmpty();
        assertThat(AspectAdvice.pointcutAnnotations(plain)).isEmpty();
    }

    @Test
    void theTextReadingFindsTheSameAnnotationsAndTheMethodsTheyMark() {
        assertThat(AspectAdvice.pointcutAnnotations(ASPECT)).containsExactly("Exclusive", "JobLock", "Singleton");
        String service = """
                class Jobs {
                    @JobLock("a")
                    @Transactional(readOnly = true)
                    public synchronized List<String> sweep(int n) { return List.of(); }
                    @com.acme.JobLock("b") void rebuild() {}
                    void unmarked() {}
                }
                """;
        assertThat(AspectAdvice.annotatedMethodNames(service, Set.of("JobLock")))
                .containsExactly("rebuild", "sweep");
    }

    @Test
    void anAspectOrderedAboveTheLowestPrecedenceIsOrdered() {
        assertThat(AspectAdvice.ordered(method("@Aspect @Order(1) class A { @Around(\"x\") void m() {} }", "m")))
                .isTrue();
        assertThat(AspectAdvice.ordered(method(
                        "@Aspect @Order(Ordered.LOWEST_PRECEDENCE) class A { @Around(\"x\") void m() {} }", "m")))
                .isFalse();
        assertThat(AspectAdvice.ordered(
                        method("@Aspect class A implements Ordered { @Around(\"x\") void m() {} }", "m")))
                .isTrue();
        assertThat(AspectAdvice.ordered(method("@Aspect class A { @Around(\"x\") void m() {} }", "m")))
                .isFalse();
    }

    private static final String PROGRAM = """
            @Aspect
            class LockAspect {
                @Around("@annotation(JobLock)")
                Object around(ProceedingJoinPoint pjp) throws Throwable {
                    return pjp.proceed();
                }
            }
            class Worker {
                @JobLock
                void work() { helper(); }
                void loop() { work(); }
                @JobLock
                void nested() { work(); }
            }
            class Caller {
                Worker worker;
                void call() { worker.work(); }
            }
            """;

    @Test
    void aCallThroughAnotherObjectRunsTheAdviceAroundTheMethodAndASelfCallDoesNot() {
        List<MethodFlow> flows = TinyGraphs.lower(PROGRAM, c -> Set.of());
        AspectAdvice.Woven woven = AspectAdvice.weave(flows);

        MethodFlow copy = woven.flows().stream()
                .filter(f -> f.name().startsWith("around$around"))
                .filter(f -> f.nodes().stream().anyMatch(n -> n.event().callee().contains("Worker.work/0")))
                .findFirst()
                .orElseThrow();
        MethodFlow call = woven.flows().stream()
                .filter(f -> f.key().equals("Caller.call/0"))
                .findFirst()
                .orElseThrow();
        assertThat(call.nodes().stream().map(n -> n.event().callee()))
                .anySatisfy(c -> assertThat(c).first().isEqualTo(copy.key()));

        // loop() calls work() on this: the advice is skipped; nested() carries the annotation itself
        assertThat(woven.bypasses()).singleElement().satisfies(b -> {
            assertThat(b.caller().key()).isEqualTo("Worker.loop/0");
            assertThat(b.advised().key()).isEqualTo("Worker.work/0");
            assertThat(b.annotation()).isEqualTo("@JobLock");
        });
        assertThat(woven.callers()).isEmpty();
    }

    @Test
    void anAdvisedTransactionalMethodRunsItsAdviceInItsTransactionUnlessTheAspectIsOrdered() {
        String transactional = PROGRAM.replace("@JobLock\n    void work()", "@JobLock @Transactional\n    void work()");
        List<MethodFlow> flows = TinyGraphs.lower(
                transactional, c -> c.isAnnotationPresent("Transactional") ? Set.of("transactional") : Set.of());
        AspectAdvice.Woven woven = AspectAdvice.weave(flows);
        assertThat(woven.callers()).hasSize(1);
        assertThat(woven.callers().values().iterator().next().method()).contains("Worker.work", "@Order");

        List<MethodFlow> ordered = TinyGraphs.lower(
                transactional.replace("@Aspect", "@Aspect @Order(0)"),
                c -> c.isAnnotationPresent("Transactional") ? Set.of("transactional") : Set.of());
        assertThat(AspectAdvice.weave(ordered).callers()).isEmpty();
    }

    @Test
    void aProjectWithoutAdviceIsLeftAsItIs() {
        List<MethodFlow> flows = TinyGraphs.lower("class A { void a() { b(); } void b() {} }", c -> Set.of());
        AspectAdvice.Woven woven = AspectAdvice.weave(flows);
        assertThat(woven.flows()).isSameAs(flows);
        assertThat(woven.bypasses()).isEmpty();
    }
}
