package io.github.pgadvisorylint.core.model;

import io.github.pgadvisorylint.core.source.SourceRegion;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A deterministic text rendering of a {@link LockModel}, for golden tests and for reading what the
 * analysis concluded: every site (id, region, function, key, role, test-source flag, API, language,
 * Java and SQL context, execution context, lifecycle, usage, loop order, path findings, hazards), then the path
 * findings with their steps, the release mismatches, the lock-order edges, the lock-order graph with its strongly connected
 * components, the lock helpers' own SQL regions, the pooling setting and evidence, and the connection
 * timeouts. Sections and sites come in the model's own sorted order, so the text depends only on the
 * scanned files, never on thread counts or hash order. Line breaks inside notes are written as
 * {@code \n}; a missing value is written {@code -}.
 */
public final class ModelDump {

    private ModelDump() {}

    /**
     * @param model a lock model
     * @return its rendering, one fact per line, ending with a line break
     */
    public static String render(LockModel model) {
        StringBuilder out = new StringBuilder();
        out.append("sites ").append(model.sites().size()).append('\n');
        for (LockSite s : model.sites()) {
            site(out, model, s);
        }
        out.append("path-findings ").append(model.pathFindings().size()).append('\n');
        for (PathFinding f : model.pathFindings()) {
            out.append("  ").append(finding(f)).append('\n');
            for (PathFinding.Step step : f.steps()) {
                out.append("    step ")
                        .append(step.region())
                        .append(' ')
                        .append(text(step.message()))
                        .append('\n');
            }
        }
        out.append("release-mismatches ")
                .append(model.releaseMismatches().size())
                .append('\n');
        for (ReleaseMismatch m : model.releaseMismatches()) {
            out.append("  ").append(mismatch(m)).append('\n');
        }
        out.append("order-edges ").append(model.orderEdges().size()).append('\n');
        for (LockOrderEdge e : model.orderEdges()) {
            out.append("  ").append(edge(e)).append('\n');
        }
        LockOrderGraph graph = model.orderGraph();
        out.append("graph-nodes ").append(graph.nodes().size()).append('\n');
        for (LockOrderGraph.Node n : graph.nodes()) {
            out.append("  ")
                    .append(n.id())
                    .append(' ')
                    .append(text(n.label()))
                    .append(n.known() ? " known" : "")
                    .append('\n');
        }
        out.append("graph-edges ").append(graph.edges().size()).append('\n');
        for (LockOrderGraph.Edge e : graph.edges()) {
            out.append("  ")
                    .append(e.from().id())
                    .append(" -> ")
                    .append(e.to().id())
                    .append(e.waits() ? " waits" : " try")
                    .append(e.sharedOnly() ? " shared-only" : "")
                    .append(graph.onCycle(e) ? " on-cycle" : "")
                    .append(" methods=")
                    .append(e.methods())
                    .append('\n');
        }
        out.append("components ").append(graph.components().size()).append('\n');
        for (LockOrderGraph.Component c : graph.components()) {
            out.append("  nodes=")
                    .append(c.nodes().stream().map(LockOrderGraph.Node::id).collect(Collectors.joining(",", "[", "]")))
                    .append('\n');
            out.append("    closing ").append(edge(c.closing())).append('\n');
            for (LockOrderEdge e : c.cycle()) {
                out.append("    cycle ").append(edge(e)).append('\n');
            }
            for (LockOrderEdge e : c.edges()) {
                out.append("    edge ").append(edge(e)).append('\n');
            }
        }
        out.append("helper-bodies ").append(model.helperBodies().size()).append('\n');
        for (SourceRegion r : model.helperBodies()) {
            out.append("  ").append(range(r)).append('\n');
        }
        out.append("pooling ").append(model.pooling()).append('\n');
        for (PoolingEvidence e : model.poolingEvidence()) {
            out.append("  ")
                    .append(e.mode())
                    .append(' ')
                    .append(e.strength())
                    .append(' ')
                    .append(region(e.region()))
                    .append(' ')
                    .append(text(e.description()))
                    .append(scope(model, e.region()))
                    .append('\n');
        }
        out.append("connection-timeouts ")
                .append(model.connectionTimeouts().size())
                .append('\n');
        for (TimeoutEvidence t : model.connectionTimeouts()) {
            out.append("  ").append(timeout(t)).append(scope(model, t.region())).append('\n');
        }
        return out.toString();
    }

    /** @return {@code " modules DIR,DIR"} for evidence that speaks for some modules only, else {@code ""} */
    private static String scope(LockModel model, SourceRegion region) {
        List<String> modules =
                region == null ? List.of() : model.evidenceScopes().modulesOf(region.path());
        return modules.isEmpty() ? "" : " modules " + String.join(",", modules);
    }

    private static void site(StringBuilder out, LockModel model, LockSite s) {
        out.append("site ").append(s.id()).append(' ').append(range(s.region())).append('\n');
        AdvisoryFunction f = s.function();
        out.append("  function ")
                .append(f.sqlName())
                .append(' ')
                .append(f.operation())
                .append(' ')
                .append(f.level())
                .append(' ')
                .append(f.mode())
                .append('\n');
        out.append("  key ")
                .append(s.key().space())
                .append(' ')
                .append(text(s.key().canonical()))
                .append(" written ")
                .append(text(s.key().display()))
                .append('\n');
        out.append("  role ")
                .append(model.role(s))
                .append(model.inTestSources(s) ? " test-source" : " main-source")
                .append(" api ")
                .append(s.api())
                .append(" language ")
                .append(s.language())
                .append('\n');
        if (s.declarationRegion() != null) {
            out.append("  declared ").append(range(s.declarationRegion())).append('\n');
        }
        if (s.java() != null) {
            JavaContext j = s.java();
            out.append("  java ")
                    .append(j.typeName())
                    .append('.')
                    .append(j.methodName())
                    .append(" call ")
                    .append(text(j.executionCall()))
                    .append(" constant ")
                    .append(text(j.sqlConstant()))
                    .append('\n');
        }
        SqlContext sql = s.sql();
        out.append("  sql ")
                .append(sql.clause())
                .append(" limit ")
                .append(text(sql.limitKeyword()))
                .append(sql.readsRows() ? " reads-rows" : "")
                .append(sql.feedsRowChoice() ? " feeds-row-choice" : "")
                .append(" depth ")
                .append(sql.depth())
                .append(sql.parsedBySqlParser() ? " parsed" : " lexical")
                .append('\n');
        ExecutionContext x = s.execution();
        out.append("  transaction ")
                .append(x.transaction())
                .append(' ')
                .append(x.boundary())
                .append(' ')
                .append(text(x.transactionEvidence()))
                .append(" at ")
                .append(region(x.transactionRegion()))
                .append('\n');
        out.append("  connection ")
                .append(x.connection())
                .append(' ')
                .append(text(x.connectionEvidence()))
                .append('\n');
        LockLifecycle l = model.lifecycle(s);
        if (l != null) {
            out.append("  lifecycle ")
                    .append(l.guarantee())
                    .append(" release ")
                    .append(region(l.releaseRegion()))
                    .append(' ')
                    .append(text(l.note()))
                    .append('\n');
        }
        SiteUsage u = model.usage(s);
        if (!u.equals(SiteUsage.UNKNOWN)) {
            out.append("  usage ")
                    .append(u.result())
                    .append(' ')
                    .append(text(u.resultNote()))
                    .append(u.straightLine() ? " straight-line" : "")
                    .append(u.freshConnection() ? " fresh-connection" : "")
                    .append('\n');
            if (u.loop() != null) {
                LoopContext loop = u.loop();
                out.append("  loop ")
                        .append(region(loop.region()))
                        .append(' ')
                        .append(text(loop.description()))
                        .append(loop.bounded() ? " bounded" : "")
                        .append(loop.keyVaries() ? " key-varies" : "")
                        .append(loop.releasedEachIteration() ? " released-each-iteration" : "")
                        .append(loop.exitsAfterSuccess() ? " exits-after-success" : "")
                        .append('\n');
            }
            if (u.timeout() != null) {
                out.append("  timeout ").append(timeout(u.timeout())).append('\n');
            }
        }
        LoopOrder order = model.loop(s);
        if (order != null) {
            out.append("  loop-order ")
                    .append(text(order.source()))
                    .append(order.sorted() ? " sorted " : " unsorted ")
                    .append(text(order.evidence()))
                    .append('\n');
        }
        for (PathFinding p : model.pathFindings(s)) {
            out.append("  path ").append(p.kind()).append(" at ").append(p.at()).append('\n');
        }
        SiteHazards h = model.hazards(s);
        if (h.swallowedFailure() != null) {
            SiteHazards.SwallowedFailure w = h.swallowedFailure();
            out.append("  swallowed-failure catch ")
                    .append(w.catchClause())
                    .append(" work ")
                    .append(w.work())
                    .append(w.falseThrown() ? " false-thrown " : " ")
                    .append(text(w.handling()))
                    .append(' ')
                    .append(text(w.workNote()))
                    .append('\n');
        }
    }

    private static String finding(PathFinding f) {
        return f.kind() + " at " + f.at() + " acquisition "
                + (f.acquisition() == null ? "-" : f.acquisition().id()) + " release "
                + (f.release() == null ? "-" : f.release().id()) + ' ' + text(f.note())
                + (f.boundary() == null
                        ? ""
                        : " boundary " + f.boundary().kind() + " "
                                + f.boundary().region() + " commit "
                                + region(f.boundary().commit()));
    }

    private static String mismatch(ReleaseMismatch m) {
        StringBuilder holds = new StringBuilder();
        m.holds().forEach(h -> holds.append(holds.isEmpty() ? "" : ",").append(h.id()));
        return m.kind() + " release " + m.release().id() + " " + m.scope() + " holds " + holds
                + (m.releaseComputation() == null
                        ? ""
                        : " computed " + text(m.releaseComputation()) + " against " + text(m.holdComputation()))
                + (m.releases() == 0 ? "" : " releases " + m.releases());
    }

    private static String edge(LockOrderEdge e) {
        return e.from().id() + " " + text(e.from().key().canonical()) + " -> " + e.to().id() + " "
                + text(e.to().key().canonical()) + " in " + e.method() + (e.ordered() ? " ordered" : "")
                + (e.waits() ? " waits" : " try");
    }

    private static String timeout(TimeoutEvidence t) {
        return t.kind() + " " + region(t.region()) + " " + text(t.description());
    }

    /** {@code path:line:column-line:column}. */
    private static String range(SourceRegion r) {
        return r + "-" + r.endLine() + ":" + r.endColumn();
    }

    private static String region(SourceRegion r) {
        return r == null ? "-" : r.toString();
    }

    /** A value in double quotes with line breaks escaped, or {@code -} when null. */
    private static String text(String s) {
        if (s == null) {
            return "-";
        }
        return '"'
                + s.replace("\\", "\\\\")
                        .replace("\r", "\\r")
                        .replace("\n", "\\n")
                        .replace("\"", "\\\"")
                + '"';
    }
}
