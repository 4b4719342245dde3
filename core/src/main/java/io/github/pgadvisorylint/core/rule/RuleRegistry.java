package io.github.pgadvisorylint.core.rule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** Finds rules on the classpath through {@link ServiceLoader}; core knows no rule by name. */
public final class RuleRegistry {

    private RuleRegistry() {}

    /**
     * @param loader the class loader to search; use the caller's own
     * @return every rule registered under {@code META-INF/services/io.github.pgadvisorylint.core.rule.Rule},
     *     sorted by id
     * @throws IllegalStateException when two rules share an id
     */
    public static List<Rule> load(ClassLoader loader) {
        List<Rule> rules = new ArrayList<>();
        for (Rule r : ServiceLoader.load(Rule.class, loader)) {
            rules.add(r);
        }
        rules.sort(Comparator.comparing(r -> r.descriptor().id()));
        for (int i = 1; i < rules.size(); i++) {
            if (rules.get(i)
                    .descriptor()
                    .id()
                    .equals(rules.get(i - 1).descriptor().id())) {
                throw new IllegalStateException(
                        "two rules share the id " + rules.get(i).descriptor().id());
            }
        }
        return List.copyOf(rules);
    }

    /** @return the rules visible to this class's own class loader, sorted by id */
    public static List<Rule> load() {
        return load(RuleRegistry.class.getClassLoader());
    }

    /**
     * @param rules a list of rules
     * @param id    a rule id
     * @return the rule with that id, or empty
     */
    public static Optional<Rule> find(List<Rule> rules, String id) {
        return rules.stream().filter(r -> r.descriptor().id().equals(id)).findFirst();
    }
}
