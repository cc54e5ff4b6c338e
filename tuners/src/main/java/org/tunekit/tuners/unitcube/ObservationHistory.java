package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.sdk.Parameters;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Proposal;

/**
 * What a unit-cube tuner knows: the observations in order of arrival, the suggestions waiting for
 * their results, and every parameter set it must not suggest again (in canonical form).
 *
 * <p>An observation holds only what its parameter set and metric give, so a result of this tuner's
 * own suggestion and the same result imported into a fresh tuner are the same observation. A
 * suggestion that ends without a result leaves the pending suggestions but stays known for the
 * rest of the run (a fresh tuner that replays the results does not know it).
 */
final class ObservationHistory {
    /** A pending suggestion and its set in canonical form. */
    private record Pending(Proposal proposal, Parameters key) {}

    private final List<Observation> observations = new ArrayList<>();
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    private final Set<Parameters> known = new HashSet<>();

    List<Observation> observations() {
        return Collections.unmodifiableList(observations);
    }

    Collection<Proposal> pending() {
        List<Proposal> out = new ArrayList<>(pending.size());
        for (Pending p : pending.values()) {
            out.add(p.proposal());
        }
        return Collections.unmodifiableList(out);
    }

    /** Observations plus pending suggestions: how far along the search is. */
    int size() {
        return observations.size() + pending.size();
    }

    /** Whether a set (in canonical form) was suggested, observed or imported. */
    boolean isKnown(Parameters canonical) {
        return known.contains(canonical);
    }

    /** How many distinct sets are known. */
    int knownCount() {
        return known.size();
    }

    /** Records a suggestion; a pending suggestion of the same id is dropped. */
    void suggest(Proposal proposal, Parameters key) {
        pending.put(proposal.parameterId(), new Pending(proposal, key));
        known.add(key);
    }

    /** Removes the pending suggestion of this id and returns it, or {@code null}. */
    Proposal answer(long parameterId) {
        Pending p = pending.remove(parameterId);
        return p == null ? null : p.proposal();
    }

    /** Removes the first pending suggestion of this set (canonical form) and returns it, or {@code null}. */
    Proposal answer(Parameters canonical) {
        for (Pending p : pending.values()) {
            if (p.key().equals(canonical)) {
                pending.remove(p.proposal().parameterId());
                return p.proposal();
            }
        }
        return null;
    }

    /** Adds an observation of a canonical set; returns it. */
    Observation observe(UnitCodec codec, Parameters canonical, double loss) {
        Observation o = new Observation(canonical, codec.unitOf(canonical), loss);
        observations.add(o);
        known.add(canonical);
        return o;
    }

    /**
     * Moves to a new space: keeps the observations whose sets fit it (in its canonical form), in
     * their order, drops the pending suggestions and forgets the other known sets.
     */
    void reencode(UnitCodec codec) {
        List<Observation> old = new ArrayList<>(observations);
        observations.clear();
        pending.clear();
        known.clear();
        for (Observation o : old) {
            UnitCodec.Known k = codec.canonical(o.parameters());
            if (k != null) {
                observe(codec, k.parameters(), o.loss());
            }
        }
    }
}
