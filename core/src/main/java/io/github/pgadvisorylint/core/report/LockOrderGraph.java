package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.model.KeyPart;
import io.github.pgadvisorylint.core.model.LockMode;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOrderEdge;
import io.github.pgadvisorylint.core.model.LockSite;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The project's lock order as a graph: one node per key (named by its constant, or its value, or
 * for a key not known statically its expression), one edge per "taken while held" pair labelled
 * with the methods that do it; edges that can wait are solid, try-lock edges dashed, and edges on a
 * cycle of waiting acquisitions (a possible deadlock, RULES.md F9) red. Written as Graphviz DOT or
 * Mermaid; deterministic.
 */
public final class LockOrderGraph {

    /** Output formats. */
    public enum Format {
        /** Graphviz DOT ({@code dot -Tsvg}). */
        DOT,
        /** Mermaid {@code flowchart}. */
        MERMAID;

        /**
         * @param word {@code dot} or {@code mermaid}, any case
         * @return the format
         * @throws IllegalArgumentException for any other word
         */
        public static Format parse(String word) {
            return valueOf(word.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** One edge: keys by node id, methods that take them in this order, and its kind. */
    private record Edge(String from, String to, Set<String> methods, boolean waits, boolean cycle) {
    }

    private final Map<String, String> labels = new TreeMap<>();
    private final Map<String, Edge> edges = new TreeMap<>();

    private LockOrderGraph() {
    }

    /**
     * @param model the analysed model
     * @return the graph of its lock-order edges
     */
    public static LockOrderGraph of(LockModel model) {
        LockOrderGraph g = new LockOrderGraph();
        Map<String, Set<String>> waiting = new TreeMap<>();
        Map<String, Boolean> waits = new HashMap<>();
        Map<String, Set<String>> methods = new HashMap<>();
        for (LockOrderEdge e : model.orderEdges()) {
            String from = g.node(e.from());
            String to = g.node(e.to());
            if (from.equals(to) || (e.from().function().mode() == LockMode.SHARED && e.to().function().mode() == LockMode.SHARED)) {
                continue;
            }
            String key = from + "\u0000" + to;
            methods.computeIfAbsent(key, k -> new TreeSet<>()).add(e.method());
            waits.merge(key, e.waits(), Boolean::logicalOr);
            if (e.waits() && e.from().key().isFullyKnown() && e.to().key().isFullyKnown()) {
                waiting.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            }
        }
        for (Map.Entry<String, Set<String>> m : methods.entrySet()) {
            String[] ends = m.getKey().split("\u0000");
            boolean cycle = waits.get(m.getKey()) && reaches(waiting, ends[1], ends[0]);
            g.edges.put(m.getKey(), new Edge(ends[0], ends[1], m.getValue(), waits.get(m.getKey()), cycle));
        }
        return g;
    }

    private static boolean reaches(Map<String, Set<String>> graph, String from, String target) {
        Deque<String> todo = new ArrayDeque<>(List.of(from));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (n.equals(target)) {
                return true;
            }
            if (seen.add(n)) {
                todo.addAll(graph.getOrDefault(n, Set.of()));
            }
        }
        return false;
    }

    /** Registers a site's key as a node and returns its id. */
    private String node(LockSite site) {
        String id;
        String label;
        if (site.key().isFullyKnown()) {
            id = "k" + site.key().space().name().charAt(0) + site.key().canonical().replaceAll("[^0-9-]+", "_");
            StringBuilder sb = new StringBuilder();
            for (KeyPart p : site.key().parts()) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                String name = p.originName() == null ? null : p.originName().substring(
                        p.originName().lastIndexOf('.', p.originName().lastIndexOf('.') - 1) + 1);
                sb.append(name == null ? Long.toString(p.value()) : name + " = " + p.value());
            }
            label = sb.toString();
        } else {
            label = site.key().display().replaceAll("^\\(|\\)$", "");
            id = "x" + Integer.toHexString(label.hashCode()) + "_" + label.replaceAll("\\W+", "_");
        }
        labels.putIfAbsent(id, label);
        return id;
    }

    /** @return true when no edge was found */
    public boolean isEmpty() {
        return edges.isEmpty();
    }

    /**
     * @param format DOT or Mermaid
     * @param out    where to write; not closed
     * @throws IOException when writing fails
     */
    public void write(Format format, Writer out) throws IOException {
        Set<String> used = new TreeSet<>();
        for (Edge e : edges.values()) {
            used.add(e.from());
            used.add(e.to());
        }
        if (format == Format.DOT) {
            out.write("digraph lock_order {\n");
            out.write("  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n");
            for (String id : used) {
                out.write("  " + id + " [label=\"" + dot(labels.get(id)) + "\"];\n");
            }
            for (Edge e : edges.values()) {
                out.write("  " + e.from() + " -> " + e.to() + " [label=\"" + dot(String.join("\\n", e.methods())) + "\""
                        + (e.waits() ? "" : ", style=dashed") + (e.cycle() ? ", color=red, fontcolor=red, penwidth=2" : "")
                        + "];\n");
            }
            out.write("}\n");
        } else {
            out.write("flowchart LR\n");
            for (String id : used) {
                out.write("  " + id + "[\"" + mermaid(labels.get(id)) + "\"]\n");
            }
            int index = 0;
            StringBuilder red = new StringBuilder();
            for (Edge e : edges.values()) {
                out.write("  " + e.from() + (e.waits() ? " -->|\"" : " -.->|\"") + mermaid(String.join(", ", e.methods()))
                        + "\"| " + e.to() + "\n");
                if (e.cycle()) {
                    red.append(red.length() == 0 ? "" : ",").append(index);
                }
                index++;
            }
            if (red.length() > 0) {
                out.write("  linkStyle " + red + " stroke:red,stroke-width:2px,color:red\n");
            }
        }
    }

    private static String dot(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\\\\n", "\\n");
    }

    private static String mermaid(String s) {
        return s.replace("\"", "#quot;");
    }
}
