package org.tunekit.dispatcher;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Checks the parameter sets a tuner or advisor gives against the current search space before they
 * are sent, parameter by parameter: a value outside its parameter's range is an error naming the
 * parameter, the value and the range; a key the space does not have (PBT's checkpoint directories,
 * an advisor's {@code TRIAL_BUDGET}) or a parameter a set leaves out (BatchTuner's) is the plugin's
 * business.
 */
final class SpaceCheck {
    private static final Logger LOG = LoggerFactory.getLogger(SpaceCheck.class);

    private final String plugin;
    private volatile Map<String, SearchSpace> byParameter = Map.of();

    /** @param plugin {@code tuner} or {@code advisor}, for messages */
    SpaceCheck(String plugin) {
        this.plugin = plugin;
    }

    /** Takes the space the plugin is given. */
    void update(SearchSpace space) {
        Map<String, SearchSpace> out = new HashMap<>();
        for (Parameter p : space.parameters()) {
            try {
                out.put(p.name(), SearchSpace.parse(Collections.singletonMap(p.name(), space.definition().get(p.name()))));
            } catch (RuntimeException e) {
                LOG.debug("parameter {} is not checked in generated sets: {}", p.name(), e.toString());
            }
        }
        byParameter = out;
    }

    /**
     * Fails when {@code p}, about to be sent as parameter id {@code id}, has a value outside the space.
     *
     * @param from the plugin's method that gave it, for the message
     */
    void check(Parameters p, long id, String from) {
        Map<String, SearchSpace> spaces = byParameter;
        if (spaces.isEmpty()) {
            return;
        }
        for (Map.Entry<String, ?> e : p.values().entrySet()) {
            SearchSpace one = spaces.get(e.getKey());
            if (one == null) {
                continue;
            }
            Optional<String> bad = one.violation(Parameters.of(Collections.singletonMap(e.getKey(), e.getValue())));
            if (bad.isPresent()) {
                throw new PluginException("the " + plugin + "'s " + from + " gave parameters outside the search space for parameter id " + id
                        + ": " + bad.get(), null);
            }
        }
    }
}
