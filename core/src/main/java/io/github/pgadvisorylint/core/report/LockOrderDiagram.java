package io.github.pgadvisorylint.core.report;

import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockOrderGraph;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Draws the model's {@link LockOrderGraph}: one box per key (named by its constant, or its value, or
 * for a key not known statically its expression), one arrow per "taken while held" pair labelled
 * with the methods that do it; arrows that can wait are solid, try-lock arrows dashed, and arrows
 * inside a strongly connected component of the graph (a proven possible deadlock, RULES.md F9, the
 * same components the {@code unordered-multi-key-lock} rule reports) red. Pairs of {@code _shared}
 * locks, which never block each other, are left out unless they are part of such a component.
 * Written as Graphviz DOT or Mermaid; deterministic. Labels quote code (key expressions, method names):
 * control characters are shown as {@code \}{@code uXXXX} ({@link TerminalText}), and the label
 * syntax of each language is escaped: in DOT {@code \} and {@code "} (a label stays one quoted string),
 * in Mermaid {@code "}, {@code <}, {@code >}, {@code &}, {@code |} and a {@code #} that would start an
 * entity code as Mermaid's entity codes ({@code #quot;}, {@code #35;}, ...), so no label ends its string
 * or becomes HTML.
 */
public final class LockOrderDiagram {

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

    /** One arrow: keys by node id, methods that take them in this order, and its kind. */
    private record Arrow(String from, String to, Set<String> methods, boolean waits, boolean cycle) {}

    private final LockOrderGraph graph;
    private final List<Arrow> arrows;

    private LockOrderDiagram(LockOrderGraph graph) {
        this.graph = graph;
        this.arrows = graph.edges().stream()
                .filter(e -> !e.sharedOnly() || graph.onCycle(e))
                .map(e -> new Arrow(e.from().id(), e.to().id(), e.methods(), e.waits(), graph.onCycle(e)))
                .toList();
    }

    /**
     * @param model the analysed model
     * @return the drawing of its lock-order graph
     */
    public static LockOrderDiagram of(LockModel model) {
        return new LockOrderDiagram(model.orderGraph());
    }

    /** @return true when there is no arrow to draw */
    public boolean isEmpty() {
        return arrows.isEmpty();
    }

    /**
     * @param format DOT or Mermaid
     * @param out    where to write; not closed
     * @throws IOException when writing fails
     */
    public void write(Format format, Writer out) throws IOException {
        Set<String> used = new TreeSet<>();
        for (Arrow a : arrows) {
            used.add(a.from());
            used.add(a.to());
        }
        List<LockOrderGraph.Node> nodes =
                graph.nodes().stream().filter(n -> used.contains(n.id())).toList();
        if (format == Format.DOT) {
            out.write("digraph lock_order {\n");
            out.write(
                    "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n");
            for (LockOrderGraph.Node n : nodes) {
                out.write("  " + n.id() + " [label=\"" + dot(n.label()) + "\"];\n");
            }
            for (Arrow a : arrows) {
                out.write("  " + a.from() + " -> " + a.to() + " [label=\""
                        + String.join(
                                "\\n",
                                a.methods().stream().map(LockOrderDiagram::dot).toList()) + "\""
                        + (a.waits() ? "" : ", style=dashed")
                        + (a.cycle() ? ", color=red, fontcolor=red, penwidth=2" : "")
                        + "];\n");
            }
            out.write("}\n");
        } else {
            out.write("flowchart LR\n");
            for (LockOrderGraph.Node n : nodes) {
                out.write("  " + n.id() + "[\"" + mermaid(n.label()) + "\"]\n");
            }
            int index = 0;
            StringBuilder red = new StringBuilder();
            for (Arrow a : arrows) {
                out.write("  " + a.from() + (a.waits() ? " -->|\"" : " -.->|\"")
                        + mermaid(String.join(", ", a.methods())) + "\"| " + a.to() + "\n");
                if (a.cycle()) {
                    red.append(red.length() == 0 ? "" : ",").append(index);
                }
                index++;
            }
            if (red.length() > 0) {
                out.write("  linkStyle " + red + " stroke:red,stroke-width:2px,color:red\n");
            }
        }
    }

    /** A DOT quoted string's content: controls visible, then {@code \} and {@code "} escaped. */
    static String dot(String s) {
        return visible(s).replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** What Mermaid decodes as an entity code: {@code #}, word characters, {@code ;}. */
    private static final Pattern MERMAID_ENTITY = Pattern.compile("#\\w+;");

    /** A Mermaid quoted label: controls visible, then Mermaid's entity codes for its own syntax and HTML. */
    static String mermaid(String s) {
        String v = visible(s);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> sb.append("#quot;");
                case '#' ->
                    sb.append(MERMAID_ENTITY.matcher(v).region(i, v.length()).lookingAt() ? "#35;" : "#");
                case '<' -> sb.append("#lt;");
                case '>' -> sb.append("#gt;");
                case '&' -> sb.append("#amp;");
                case '|' -> sb.append("#124;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String visible(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (TerminalText.needsEscape(c)) {
                TerminalText.appendVisible(sb, c);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
