package io.github.pgadvisorylint.core.java;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.type.VarType;
import org.junit.jupiter.api.Test;

/** The parser runs the newest language level's post-processing but not its validators. */
class ParserConfigurationTest {

    private static final String MODERN = """
            package p;
            import java.util.*;
            sealed interface Shape permits Circle, Square { }
            record Circle(double r) implements Shape { }
            record Square(double s) implements Shape { }
            class Uses {
                static final String SQL = \"""
                    SELECT pg_advisory_xact_lock(42)
                    \""";
                double area(Shape shape) {
                    var total = 0.0;
                    for (var x : List.of(1, 2)) { total += x; }
                    return switch (shape) {
                        case Circle c when c.r() > 0 -> Math.PI * c.r() * c.r();
                        case Circle c -> 0;
                        case Square s -> { yield s.s() * s.s(); }
                    };
                }
                Object o(Object x) { return x instanceof String s ? s.length() : (Runnable) () -> { }; }
            }
            """;

    private static ParseResult<CompilationUnit> full(String code) {
        return new JavaParser(new ParserConfiguration()
                        .setLanguageLevel(ParserConfiguration.LanguageLevel.valueOf("JAVA_21"))
                        .setAttributeComments(false)
                        .setTabSize(1))
                .parse(code);
    }

    @Test
    void treesEqualThoseOfTheFullConfigurationIncludingVarTypes() {
        ParseResult<CompilationUnit> ours = new JavaParser(JavaFrontEnd.parserConfiguration()).parse(MODERN);
        ParseResult<CompilationUnit> theirs = full(MODERN);
        assertThat(ours.isSuccessful()).as(ours.getProblems().toString()).isTrue();
        assertThat(theirs.isSuccessful()).as(theirs.getProblems().toString()).isTrue();
        assertThat(ours.getResult()).isEqualTo(theirs.getResult());
        assertThat(ours.getResult().orElseThrow().findAll(VarType.class)).hasSize(2);
    }

    @Test
    void codeOnlyAValidatorRejectsIsRead_syntaxErrorsStillFail() {
        String conflictingModifiers = "class A { public private void f() { } }";
        assertThat(full(conflictingModifiers).isSuccessful()).isFalse();
        assertThat(new JavaParser(JavaFrontEnd.parserConfiguration())
                        .parse(conflictingModifiers)
                        .isSuccessful())
                .isTrue();
        assertThat(new JavaParser(JavaFrontEnd.parserConfiguration())
                        .parse("class A { void f( }")
                        .isSuccessful())
                .isFalse();
    }
}
