package io.github.pgadvisorylint.rules.fuzz;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * How long the fuzz properties run. In {@code verify} every property runs the tries and the fixed seed
 * written on it, so a run is short and reproducible. Two system properties (Maven passes {@code -D}
 * options on to the test JVM) make a longer run:
 * <ul>
 *   <li>{@code fuzz.scale=N}: every property runs N times its tries;</li>
 *   <li>{@code fuzz.seed=S}: seed S for every property instead of its own, or {@code random} for a fresh
 *       seed each run (jqwik prints the seed of a failing run, so it can be replayed with this option).</li>
 * </ul>
 * CONTRIBUTING.md ("Fuzzing") has the command.
 */
public final class FuzzBudget implements AroundPropertyHook {

    /** The system property multiplying every property's tries. */
    public static final String SCALE = "fuzz.scale";
    /** The system property replacing every property's seed. */
    public static final String SEED = "fuzz.seed";

    /** Called by jqwik. */
    public FuzzBudget() {}

    /** Added on a test class, the hook applies to each of its properties. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        PropertyAttributes attributes = context.attributes();
        int scale = Math.max(1, Integer.getInteger(SCALE, 1));
        attributes.tries().ifPresent(t -> attributes.setTries(Math.multiplyExact(t, scale)));
        String seed = System.getProperty(SEED, "").trim();
        if (seed.equals("random")) {
            attributes.setSeed("");
        } else if (!seed.isEmpty()) {
            attributes.setSeed(seed);
        }
        return property.execute();
    }
}
