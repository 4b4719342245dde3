package io.github.pgadvisorylint.rules;

import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.model.DataSourceUrl;
import io.github.pgadvisorylint.core.model.EvidenceStrength;
import io.github.pgadvisorylint.core.model.LockLevel;
import io.github.pgadvisorylint.core.model.LockModel;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.model.SiteRole;
import io.github.pgadvisorylint.core.rule.AbstractRule;
import io.github.pgadvisorylint.core.rule.Precision;
import io.github.pgadvisorylint.core.rule.RelatedLocation;
import io.github.pgadvisorylint.core.rule.RuleContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code session-lock-under-transaction-pooling}: a session-level lock or unlock in a project whose
 * connections go through a pooler in transaction or statement mode. PgBouncer never supports
 * session-level advisory locks in those modes (PgBouncer docs "Features"; RULES.md F10, verified with
 * PgBouncer 1.18): the lock stays on a server connection that other clients borrow.
 */
public final class SessionLockUnderTransactionPoolingRule extends AbstractRule {

    private static final int MAX_RELATED = 3;

    /** Creates the rule with its metadata and documentation page. */
    public SessionLockUnderTransactionPoolingRule() {
        // precision: pooling evidence may be inferred (a port, a host name), not declared
        super(
                "session-lock-under-transaction-pooling",
                Severity.ERROR,
                Precision.MEDIUM,
                "Session-level advisory lock behind a pooler in transaction or statement mode.",
                "With PgBouncer (or another pooler) in transaction or statement mode, a client holds a server "
                        + "connection only for one transaction or statement. A session-level advisory lock stays on "
                        + "that server connection: another client multiplexed onto it can take it again or release it, "
                        + "the owner's unlock may run elsewhere and fail, and the lock outlives the client.",
                List.of("correctness", "concurrency", "pgbouncer", "connection-pool", "postgresql", "advisory-lock"));
    }

    @Override
    public void check(RuleContext context) {
        LockModel model = context.model();
        PoolingSetting setting = model.pooling();
        if (setting == PoolingSetting.SESSION || setting == PoolingSetting.NONE) {
            return;
        }
        Map<List<PoolingEvidence>, Verdict> verdicts = new HashMap<>();
        for (LockSite site : model.sites()) {
            if (site.function().level() != LockLevel.SESSION || model.role(site) == SiteRole.HELPER_CALL) {
                continue;
            }
            // evidence in a module's configuration speaks for that module only (EvidenceScopes)
            List<PoolingEvidence> evidence = model.poolingEvidence(site.region().path());
            DataSourceUrl own = model.dataSource(site);
            if (own != null && !own.pooler() && setting == PoolingSetting.AUTO) {
                continue; // its own connection goes straight to PostgreSQL: other data sources' evidence is not its
            }
            if (own != null
                    && own.pooler()
                    && evidence.stream()
                            .noneMatch(
                                    e -> e.region().path().equals(own.region().path())
                                            && e.region().startLine()
                                                    == own.region().startLine())) {
                List<PoolingEvidence> withOwn = new ArrayList<>(evidence);
                withOwn.add(new PoolingEvidence(
                        PoolingMode.TRANSACTION,
                        EvidenceStrength.INFERRED,
                        own.region(),
                        "this code connects with " + own.display() + ", a pooler's address"));
                evidence = List.copyOf(withOwn);
            }
            Verdict verdict = verdicts.computeIfAbsent(evidence, e -> verdict(setting, e));
            if (verdict == null) {
                continue;
            }
            // a warning rests on inferred evidence: when the site's own URL is among it, say so first
            String why = own != null && own.pooler() && verdict.severity() == Severity.WARNING
                    ? "the URL this code connects with, " + own.display() + ", points at a pooler, which breaks"
                            + " session-level locks in transaction or statement mode"
                    : verdict.why();
            String what = site.function().operation().isAcquisition()
                    ? "takes a session-level lock"
                    : "releases a session-level lock";
            context.report(
                    verdict.severity(),
                    site,
                    site.display() + " " + what + ", but " + why
                            + ": the lock stays on a server connection that other clients borrow, and the unlock may run on "
                            + "another one. Use " + replacement(site) + " inside a transaction, or connect this code "
                            + "directly or through a session-mode pool." + verdict.declare(),
                    verdict.related());
        }
    }

    /** What the rule says of every session-level site that one list of evidence speaks for. */
    private record Verdict(Severity severity, String why, String declare, List<RelatedLocation> related) {}

    /** @return the verdict for sites under this setting and evidence, or null when they are fine */
    private static Verdict verdict(PoolingSetting setting, List<PoolingEvidence> evidence) {
        List<PoolingEvidence> transactional = new ArrayList<>();
        boolean declared = false;
        boolean declaredSession = false;
        for (PoolingEvidence e : evidence) {
            if (e.mode() == PoolingMode.SESSION) {
                declaredSession |= e.strength() == EvidenceStrength.DECLARED;
            } else {
                transactional.add(e);
                declared |= e.strength() == EvidenceStrength.DECLARED;
            }
        }
        Severity severity;
        String why;
        if (setting == PoolingSetting.TRANSACTION || setting == PoolingSetting.STATEMENT) {
            severity = Severity.ERROR;
            // the setting may come from --pooling, the configuration file's pooling: or the Maven parameter
            why = "connections go through a pooler in " + setting.word() + " mode (the scan's pooling setting is "
                    + setting.word() + ")";
        } else if (declared) {
            severity = Severity.ERROR;
            why = "the configuration routes connections through a pooler in transaction or statement mode";
        } else if (!transactional.isEmpty() && !declaredSession) {
            severity = Severity.WARNING;
            // a PgBouncer port or host shows a pooler, not its mode (pool_mode defaults to session)
            why = "the configuration suggests a pooler, which breaks session-level locks in transaction or"
                    + " statement mode";
        } else {
            return null;
        }
        boolean onlyDeclared = declared;
        List<PoolingEvidence> shown = transactional.stream()
                .filter(e -> !onlyDeclared || e.strength() == EvidenceStrength.DECLARED)
                .limit(MAX_RELATED)
                .toList();
        List<RelatedLocation> related = new ArrayList<>();
        for (PoolingEvidence e : shown) {
            related.add(new RelatedLocation(
                    e.region(), e.description() + " (" + e.strength().name().toLowerCase(Locale.ROOT) + ")"));
        }
        String where = shown.isEmpty()
                ? ""
                : " (" + shown.get(0).region().path() + ":"
                        + shown.get(0).region().startLine() + ")";
        String declare = declared || setting != PoolingSetting.AUTO
                ? ""
                : " If that pooler runs in session mode, say so: pool_mode = session in its pgbouncer.ini, or"
                        + " pooling: session in the configuration file.";
        return new Verdict(severity, why + where, declare, List.copyOf(related));
    }

    private static String replacement(LockSite site) {
        String name = site.function().sqlName();
        return name.contains("unlock") ? "pg_advisory_xact_lock" : name.replace("advisory_lock", "advisory_xact_lock");
    }
}
