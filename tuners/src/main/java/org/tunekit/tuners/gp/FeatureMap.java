package org.tunekit.tuners.gp;

import java.util.ArrayList;
import java.util.List;
import org.tunekit.sdk.space.EncodedSpace;

/**
 * Turns a unit vector of the encoded space into the Gaussian process's inputs. A numeric
 * coordinate (integer or real) is one input, its unit value, or 0.5 where the coordinate is an
 * inactive nested parameter. A categorical coordinate with K options is one-hot encoded into K
 * inputs scaled by 1/sqrt(2), so two different options are at distance 1 whatever their order; an
 * inactive one is all zeros. Each coordinate is one length-scale <em>group</em>: the inputs of a
 * one-hot encoding share a length-scale.
 */
public final class FeatureMap {
    private static final double ONE_HOT = Math.sqrt(0.5);

    private final int[] offset;
    private final int[] cardinality;
    private final int[] groupOf;
    private final int size;

    /** The map of an encoded space's unit vectors. */
    public FeatureMap(EncodedSpace space) {
        List<EncodedSpace.Dimension> dims = space.dimensions();
        offset = new int[dims.size()];
        cardinality = new int[dims.size()];
        List<Integer> groups = new ArrayList<>();
        int f = 0;
        for (EncodedSpace.Dimension d : dims) {
            offset[d.index()] = f;
            int width = d.kind() == EncodedSpace.Kind.CATEGORICAL ? d.cardinality() : 1;
            cardinality[d.index()] = d.kind() == EncodedSpace.Kind.CATEGORICAL ? d.cardinality() : 0;
            for (int k = 0; k < width; k++) {
                groups.add(d.index());
            }
            f += width;
        }
        size = f;
        groupOf = groups.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The number of inputs. */
    public int size() {
        return size;
    }

    /** The number of length-scale groups (one per coordinate). */
    public int groups() {
        return offset.length;
    }

    /** The group of each input. */
    public int[] groupOf() {
        return groupOf;
    }

    /** The inputs of a unit vector ({@code NaN} marks inactive coordinates). */
    public double[] features(double[] unit) {
        double[] f = new double[size];
        for (int i = 0; i < offset.length; i++) {
            double u = unit[i];
            int k = cardinality[i];
            if (k == 0) {
                f[offset[i]] = Double.isNaN(u) ? 0.5 : u;
            } else if (!Double.isNaN(u)) {
                int option = Math.max(0, Math.min(k - 1, (int) Math.floor(u * k)));
                f[offset[i] + option] = ONE_HOT;
            }
        }
        return f;
    }
}
