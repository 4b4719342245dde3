package io.github.pgadvisorylint.core.flow;

import io.github.pgadvisorylint.core.model.AutoCommitSetting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one node of a method's control-flow graph does to connections, lock state and the values the
 * analysis follows. Holds names and access paths only, never a syntax tree, so it can be cached and
 * linked across files.
 *
 * <p>Access paths are dotted strings rooted at a local variable or parameter name, or at {@code this}
 * for fields ({@code conn}, {@code this.connection}, {@code lock.conn}). Temporaries the lowering
 * introduces start with {@code $}.
 *
 * @param kind     what the node does
 * @param target   the variable that receives the node's value ({@link Kind#ASSIGN}, {@link Kind#OPEN},
 *                 {@link Kind#LOCK}, {@link Kind#CALL}); the returned path for {@link Kind#RETURN}; the
 *                 tested variable for {@link Kind#BRANCH} ({@code $true} for a test that always holds,
 *                 null for a condition the analysis does not follow); else null
 * @param path     the connection path acted on ({@link Kind#LOCK}, {@link Kind#EXECUTE}, {@link Kind#CLOSE},
 *                 {@link Kind#BEGIN}, {@link Kind#END}, {@link Kind#AUTOCOMMIT}); the copied path or
 *                 constant ({@code $const:true}, {@code $const:false}) for {@link Kind#ASSIGN}; the receiver
 *                 path of a {@link Kind#CALL} (null for an unqualified call); for {@link Kind#BRANCH}, the
 *                 condition's stable form when it is a property test with no arguments on a path or on
 *                 {@code this} ({@code props.isLockEnabled()}), so that two tests of it in one method agree; else
 *                 null
 * @param sites    the lock-site ids executed here ({@link Kind#LOCK}, and a {@link Kind#CALL} of a lock helper)
 * @param callee   for {@link Kind#CALL}: the callee's candidate keys {@code Type.method/arity} (declared
 *                 or imported receiver types first), or for {@link Kind#OPEN}: the {@link ConnectionKind} name
 * @param args     for {@link Kind#CALL}: the access path of each argument, or null where an argument is no path
 * @param argTypes for {@link Kind#CALL}: the simple static type of each argument as the code declares it
 *                 ({@code Connection}, {@code long}, {@code String}), or null where it is not known; empty for
 *                 other kinds. Tells overloads of one arity apart ({@link CallGraph})
 * @param pool     for {@link Kind#OPEN}: the auto-commit setting of the pool the connection is borrowed from, when
 *                 the code builds that pool itself ({@link PoolSettings}); null when the project's configuration
 *                 of its main pool applies
 * @param negated  for {@link Kind#BRANCH}: true when the first successor is taken when the variable is false;
 *                 for {@link Kind#AUTOCOMMIT}: the value set is false (a manual transaction begins);
 *                 for {@link Kind#END}: true for a rollback, false for a commit
 * @param writesNothing true when the node leaves no write pending in the transaction it runs in: for
 *                 {@link Kind#EXECUTE}, SQL that only reads (a plain {@code SELECT}, as
 *                 {@code core.sql.ReadOnlySql} tells the lowering); for {@link Kind#CALL}, a framework call that runs
 *                 its callback in a transaction of its own, committed before it returns (a {@code REQUIRES_NEW}
 *                 template, {@link TemplatePropagation}). What a session unlock before the commit could expose
 *                 (F19) is only the writes
 */
public record FlowEvent(
        Kind kind,
        String target,
        String path,
        List<String> sites,
        List<String> callee,
        List<String> args,
        List<String> argTypes,
        AutoCommitSetting pool,
        boolean negated,
        boolean writesNothing) {

    /** The kinds of node. */
    public enum Kind {
        /** Entry, exit, a join or a choice with no effect. */
        NOP,
        /** {@code target = path}, or a constant, or an unknown value when {@code path} is null. */
        ASSIGN,
        /** {@code target} becomes a newly opened connection of kind {@code callee.get(0)}. */
        OPEN,
        /** Executes the lock sites {@code sites} on connection {@code path}; the boolean goes to {@code target}. */
        LOCK,
        /** Executes other SQL on connection {@code path}; a failure aborts a manual transaction (F18). */
        EXECUTE,
        /** Closes the connection {@code path} (or returns it to its pool). */
        CLOSE,
        /** {@code setAutoCommit} on {@code path}. */
        AUTOCOMMIT,
        /** Begins a transaction on {@code path}. */
        BEGIN,
        /** Commits or rolls back ({@code negated}) the transaction of {@code path}. */
        END,
        /** Calls another method; its summary, when found, says what it does. */
        CALL,
        /** Tests {@code target}: successor 0 when it is true (false if negated), successor 1 otherwise. */
        BRANCH,
        /** Returns {@code target} (a path, or null). */
        RETURN,
        /**
         * Each of {@code args} names, from here on, the object {@code path} names: at the entry of a copy bound to
         * a caller's lambda, the lambda's captured {@code this} seen through the parameter ({@code work.db}) is the
         * callee's receiver ({@code this}), since the caller called the callee on its field {@code db}.
         */
        ALIAS,
        /**
         * Only exceptions that are not SQL errors pass here (the path out of a {@code catch (SQLException)}
         * dispatch): they abort no transaction.
         */
        NOT_SQL_ERROR
    }

    /** Checks the required fields and copies the lists. */
    public FlowEvent {
        Objects.requireNonNull(kind, "kind");
        sites = sites == null ? List.of() : List.copyOf(sites);
        callee = callee == null ? List.of() : List.copyOf(callee);
        args = args == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(args));
        argTypes = argTypes == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(argTypes));
    }

    /** An event with no argument types: every kind but a call whose overload the types may choose. */
    public FlowEvent(
            Kind kind,
            String target,
            String path,
            List<String> sites,
            List<String> callee,
            List<String> args,
            boolean negated) {
        this(kind, target, path, sites, callee, args, null, null, negated, false);
    }

    /** An event with argument types: a call whose overload the types may choose. */
    public FlowEvent(
            Kind kind,
            String target,
            String path,
            List<String> sites,
            List<String> callee,
            List<String> args,
            List<String> argTypes,
            boolean negated) {
        this(kind, target, path, sites, callee, args, argTypes, null, negated, false);
    }

    /** An event with no effect. */
    public static final FlowEvent NOTHING = new FlowEvent(Kind.NOP, null, null, null, null, null, false);

    /** @return {@code target = path} */
    public static FlowEvent assign(String target, String path) {
        return new FlowEvent(Kind.ASSIGN, target, path, null, null, null, false);
    }

    /** @return an event of the given kind acting on one connection path */
    public static FlowEvent on(Kind kind, String path) {
        return new FlowEvent(kind, null, path, null, null, null, false);
    }

    /** @return a test of {@code variable} */
    public static FlowEvent branch(String variable, boolean negated) {
        return new FlowEvent(Kind.BRANCH, variable, null, null, null, null, negated);
    }

    /**
     * @param variable the temporary that holds the condition's value
     * @param stable   the condition's stable form ({@code props.isLockEnabled()}): every test of it in one method
     *                 gives the same answer until something assigns its root
     * @param negated  true when the first successor is taken when the condition is false
     * @return a test of a property condition
     */
    public static FlowEvent branch(String variable, String stable, boolean negated) {
        return new FlowEvent(Kind.BRANCH, variable, stable, null, null, null, negated);
    }

    /** @return this event with other callee names, everything else kept */
    public FlowEvent withCallee(List<String> names) {
        return new FlowEvent(kind, target, path, sites, names, args, argTypes, pool, negated, writesNothing);
    }

    /**
     * @param key   the key of the graph the call runs instead
     * @param arity that graph's parameter count
     * @return this call running {@code key} first (its other names kept behind), with {@code arity} arguments the
     *     analysis does not follow and no argument types
     */
    public FlowEvent redirected(String key, int arity) {
        List<String> names = new ArrayList<>(callee.size() + 1);
        names.add(key);
        names.addAll(callee);
        return new FlowEvent(
                kind,
                target,
                path,
                sites,
                names,
                Collections.nCopies(arity, null),
                List.of(),
                pool,
                negated,
                writesNothing);
    }

    /** @return this event with other argument paths, everything else kept */
    public FlowEvent withArgs(List<String> paths) {
        return new FlowEvent(kind, target, path, sites, callee, paths, argTypes, pool, negated, writesNothing);
    }

    /**
     * @return for an {@link Kind#OPEN} event, the kind of connection it opens; {@link ConnectionKind#UNKNOWN} when
     *     the event names none
     */
    public ConnectionKind openedKind() {
        if (callee.isEmpty()) {
            return ConnectionKind.UNKNOWN;
        }
        for (ConnectionKind k : ConnectionKind.values()) {
            if (k.name().equals(callee.get(0))) {
                return k;
            }
        }
        return ConnectionKind.UNKNOWN;
    }
}
