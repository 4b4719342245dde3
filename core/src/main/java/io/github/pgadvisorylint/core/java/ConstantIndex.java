package io.github.pgadvisorylint.core.java;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The constants of every Java file parsed in one analysis, so a key or SQL text written as
 * {@code LockKeys.INVOICE_JOB} in one file resolves to the declaration in another: {@code final}
 * fields and interface fields with initializers, and enum constants. Keyed by the declaring type's
 * simple name and its qualified name.
 *
 * <p>Not read-only: it grows on the analysis thread, first with the outlines of the candidates and of
 * the files they refer to, then before each helper round with the outlines of the files that join as
 * helper callers (see {@code JavaProject}), so an extraction sees the index as it stood when its round
 * started. Every method is {@code synchronized}: parsing threads may read while it grows (an extraction
 * abandoned over the time budget may still run) and never see a file half added. The lists
 * {@link #types(String)} returns are the index's own: callers must not modify them.
 */
public final class ConstantIndex {

    /**
     * A declared constant.
     *
     * @param qualifiedName e.g. {@code com.acme.LockKeys.INVOICE_JOB}
     * @param typeName      simple name of the declaring type
     * @param declaration   the variable declarator or enum constant declaration
     * @param file          the declaring file
     */
    public record Constant(String qualifiedName, String typeName, Node declaration, SourceFile file) {}

    private final Map<String, List<Constant>> byTypeAndName = new HashMap<>();
    private final Map<String, List<TypeDeclaration<?>>> typesBySimpleName = new HashMap<>();
    private final Map<TypeDeclaration<?>, SourceFile> typeFiles = new HashMap<>();
    private final Set<String> files = new HashSet<>();

    /** An empty index. */
    public ConstantIndex() {}

    /**
     * What one file adds to the index, collected without the index's lock (on a parsing thread).
     *
     * @param path      the file's path
     * @param types     the type declarations, with the file declaring them
     * @param constants the constants, keyed {@code Type.NAME}
     */
    public record Contribution(
            String path,
            List<TypeDeclaration<?>> types,
            SourceFile file,
            List<Map.Entry<String, Constant>> constants) {}

    /**
     * Collects every constant and type declared in a compilation unit; thread-safe.
     *
     * @param unit the parsed file
     * @param file its text
     * @return what {@link #add(Contribution)} adds
     */
    public static Contribution collect(CompilationUnit unit, SourceFile file) {
        String pkg =
                unit.getPackageDeclaration().map(p -> p.getNameAsString() + ".").orElse("");
        List<TypeDeclaration<?>> types = new ArrayList<>();
        List<Map.Entry<String, Constant>> constants = new ArrayList<>();
        for (TypeDeclaration<?> type : unit.findAll(TypeDeclaration.class)) {
            types.add(type);
            String qualifiedType = pkg + qualifiedTypeName(type);
            for (FieldDeclaration field : type.getFields()) {
                boolean constant =
                        field.isFinal() || (type instanceof ClassOrInterfaceDeclaration c && c.isInterface());
                if (!constant) {
                    continue;
                }
                for (VariableDeclarator v : field.getVariables()) {
                    if (v.getInitializer().isPresent()) {
                        constants.add(Map.entry(
                                type.getNameAsString() + "." + v.getNameAsString(),
                                new Constant(
                                        qualifiedType + "." + v.getNameAsString(), type.getNameAsString(), v, file)));
                    }
                }
            }
            if (type instanceof EnumDeclaration e) {
                for (EnumConstantDeclaration c : e.getEntries()) {
                    constants.add(Map.entry(
                            type.getNameAsString() + "." + c.getNameAsString(),
                            new Constant(qualifiedType + "." + c.getNameAsString(), type.getNameAsString(), c, file)));
                }
            }
        }
        return new Contribution(file.path(), types, file, constants);
    }

    /**
     * Adds every constant and type declared in a compilation unit.
     *
     * @param unit the parsed file
     * @param file its text
     */
    public void add(CompilationUnit unit, SourceFile file) {
        add(collect(unit, file));
    }

    /**
     * Adds what {@link #collect} found in one file; a file added before is not added again.
     *
     * @param c the file's contribution
     */
    public synchronized void add(Contribution c) {
        if (!files.add(c.path())) {
            return; // parsed twice (for constants and for helper calls): index once
        }
        for (TypeDeclaration<?> type : c.types()) {
            typesBySimpleName
                    .computeIfAbsent(type.getNameAsString(), k -> new ArrayList<>())
                    .add(type);
            typeFiles.put(type, c.file());
        }
        for (Map.Entry<String, Constant> e : c.constants()) {
            byTypeAndName.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
        }
    }

    private static String qualifiedTypeName(TypeDeclaration<?> type) {
        StringBuilder sb = new StringBuilder(type.getNameAsString());
        Node p = type.getParentNode().orElse(null);
        while (p != null) {
            if (p instanceof TypeDeclaration<?> t) {
                sb.insert(0, t.getNameAsString() + ".");
            }
            p = p.getParentNode().orElse(null);
        }
        return sb.toString();
    }

    /**
     * @param typeSimpleName  simple name of the declaring type, e.g. {@code LockKeys}
     * @param name            the field or enum constant name
     * @param preferQualified qualified type names the referencing file imports or shares a package
     *                        with, tried first when several types share the simple name
     * @return the constant, or empty when unknown or ambiguous
     */
    public synchronized Optional<Constant> lookup(String typeSimpleName, String name, List<String> preferQualified) {
        List<Constant> found = byTypeAndName.get(typeSimpleName + "." + name);
        if (found == null || found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() == 1) {
            return Optional.of(found.get(0));
        }
        for (String q : preferQualified) {
            for (Constant c : found) {
                if (c.qualifiedName().equals(q + "." + name)
                        || c.qualifiedName().startsWith(q + "." + typeSimpleName + ".")) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @param simpleName a type's simple name
     * @return the declarations of types with that name, possibly empty
     */
    public synchronized List<TypeDeclaration<?>> types(String simpleName) {
        return typesBySimpleName.getOrDefault(simpleName, List.of());
    }

    /** @return every type declaration added to this index, in no particular order */
    public synchronized List<TypeDeclaration<?>> allTypes() {
        return typesBySimpleName.values().stream().flatMap(List::stream).toList();
    }

    /**
     * @param type a type declaration added to this index
     * @return the file declaring it, or null
     */
    public synchronized SourceFile fileOf(TypeDeclaration<?> type) {
        return typeFiles.get(type);
    }
}
