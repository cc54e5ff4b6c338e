package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;

/**
 * The training set a surrogate model is fitted on: the usable observations, their model inputs and
 * their standardised losses.
 *
 * <p>An observation is usable when its loss is finite, or {@code +inf} while some loss is finite;
 * {@code +inf} then counts as the worst finite loss. {@code NaN} and {@code -inf} losses are left
 * out. The targets are the losses less their mean, divided by their standard deviation (by 1 when
 * there are fewer than two, or when they are all equal to within rounding).
 *
 * @param x the model inputs, one row per usable observation
 * @param y the standardised losses, in the order of {@code x}
 * @param mean the mean of the losses
 * @param scale what the centred losses were divided by
 * @param from the usable observations, in the order of {@code x}
 */
public record TrainingData(double[][] x, double[] y, double mean, double scale, List<Observation> from) {

    /**
     * The training set of {@code observations}.
     *
     * @param observations the observations, in the order they arrived
     * @param select applied to the usable observations before the inputs are built: a model that
     *     bounds its size keeps a subset here (the worst finite loss still comes from all of them)
     * @param inputs the model input of an observation's unit point
     */
    public static TrainingData of(List<Observation> observations, UnaryOperator<List<Observation>> select,
            Function<double[], double[]> inputs) {
        double worst = Double.NEGATIVE_INFINITY;
        for (Observation o : observations) {
            if (Double.isFinite(o.loss())) {
                worst = Math.max(worst, o.loss());
            }
        }
        List<Observation> usable = new ArrayList<>();
        for (Observation o : observations) {
            if (Double.isFinite(o.loss()) || (o.loss() == Double.POSITIVE_INFINITY && worst > Double.NEGATIVE_INFINITY)) {
                usable.add(o);
            }
        }
        usable = select.apply(usable);
        int n = usable.size();
        double[][] x = new double[n][];
        double[] y = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            Observation o = usable.get(i);
            x[i] = inputs.apply(o.unit());
            y[i] = o.loss() == Double.POSITIVE_INFINITY ? worst : o.loss();
            sum += y[i];
        }
        double mean = n == 0 ? 0 : sum / n;
        double ss = 0;
        for (double v : y) {
            ss += (v - mean) * (v - mean);
        }
        double scale = n < 2 ? 1 : Math.sqrt(ss / n);
        if (!(scale > 1e-12 * Math.max(1, Math.abs(mean)))) {
            scale = 1;
        }
        for (int i = 0; i < n; i++) {
            y[i] = (y[i] - mean) / scale;
        }
        return new TrainingData(x, y, mean, scale, usable);
    }

    /** The training set of all usable {@code observations}. */
    public static TrainingData of(List<Observation> observations, Function<double[], double[]> inputs) {
        return of(observations, UnaryOperator.identity(), inputs);
    }

    /** How many observations the set holds. */
    public int size() {
        return y.length;
    }

    /** The smallest standardised loss, {@code +inf} when the set is empty. */
    public double best() {
        double best = Double.POSITIVE_INFINITY;
        for (double v : y) {
            best = Math.min(best, v);
        }
        return best;
    }
}
