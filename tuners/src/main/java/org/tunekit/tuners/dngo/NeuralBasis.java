package org.tunekit.tuners.dngo;

import java.util.SplittableRandom;

/**
 * A fully connected network with two tanh hidden layers and a linear output, fitted to a regression
 * target by minimising the mean squared error plus a small weight decay with Adam (Kingma and Ba,
 * 2015) in shuffled mini-batches. Its last hidden layer is the basis of {@link BayesianLinearRegression}.
 *
 * <p>Everything is deterministic given the generator: the initial weights (Glorot uniform), the
 * order of the mini-batches; the activation is computed from {@link Math#exp}, whose result the JVM
 * keeps the same in interpreted and compiled code, so a network retrained from the same data in
 * another process on the same platform is the same network.
 */
final class NeuralBasis {
    private static final double LEARNING_RATE = 0.01;
    private static final double BETA1 = 0.9;
    private static final double BETA2 = 0.999;
    private static final double EPSILON = 1e-8;
    private static final double WEIGHT_DECAY = 1e-4;
    private static final int BATCH = 32;

    private final int inputs;
    private final int hidden;
    /** All parameters in one array: W1 (hidden x inputs), b1, W2 (hidden x hidden), b2, w3, b3. */
    private final double[] w;
    private final int w1;
    private final int b1;
    private final int w2;
    private final int b2;
    private final int w3;
    private final int b3;

    NeuralBasis(int inputs, int hidden, SplittableRandom rng) {
        this.inputs = inputs;
        this.hidden = hidden;
        w1 = 0;
        b1 = w1 + hidden * inputs;
        w2 = b1 + hidden;
        b2 = w2 + hidden * hidden;
        w3 = b2 + hidden;
        b3 = w3 + hidden;
        w = new double[b3 + 1];
        glorot(w1, inputs, hidden, rng);
        glorot(w2, hidden, hidden, rng);
        glorot(w3, hidden, 1, rng);
    }

    private void glorot(int from, int fanIn, int fanOut, SplittableRandom rng) {
        double limit = Math.sqrt(6.0 / (fanIn + fanOut));
        for (int i = 0; i < fanIn * fanOut; i++) {
            w[from + i] = rng.nextDouble(-limit, limit);
        }
    }

    /** The number of basis functions (the width of the last hidden layer). */
    int size() {
        return hidden;
    }

    /** The last hidden layer's activations at {@code x}. */
    double[] basis(double[] x) {
        double[] h1 = new double[hidden];
        double[] h2 = new double[hidden];
        forward(x, h1, h2);
        return h2;
    }

    /** Fills the activations of both hidden layers; returns the output. */
    private double forward(double[] x, double[] h1, double[] h2) {
        for (int j = 0; j < hidden; j++) {
            double s = w[b1 + j];
            int row = w1 + j * inputs;
            for (int i = 0; i < inputs; i++) {
                s += w[row + i] * x[i];
            }
            h1[j] = tanh(s);
        }
        double out = w[b3];
        for (int j = 0; j < hidden; j++) {
            double s = w[b2 + j];
            int row = w2 + j * hidden;
            for (int i = 0; i < hidden; i++) {
                s += w[row + i] * h1[i];
            }
            h2[j] = tanh(s);
            out += w[w3 + j] * h2[j];
        }
        return out;
    }

    /** tanh(s) = 1 - 2 / (exp(2s) + 1); exact to a few ulps and much cheaper than {@link StrictMath#tanh}. */
    static double tanh(double s) {
        if (s > 20) {
            return 1;
        }
        if (s < -20) {
            return -1;
        }
        return 1 - 2 / (Math.exp(2 * s) + 1);
    }

    /**
     * Trains on rows {@code x} with targets {@code y} for {@code epochs} passes over the data.
     *
     * @return the final epoch's mean squared error
     */
    double train(double[][] x, double[] y, int epochs, SplittableRandom rng) {
        int n = x.length;
        double[] m = new double[w.length];
        double[] v = new double[w.length];
        double[] g = new double[w.length];
        double[] h1 = new double[hidden];
        double[] h2 = new double[hidden];
        double[] d2 = new double[hidden];
        double[] d1 = new double[hidden];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long t = 0;
        double mse = Double.NaN;
        for (int epoch = 0; epoch < epochs; epoch++) {
            for (int i = n - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
            double sse = 0;
            for (int start = 0; start < n; start += BATCH) {
                int end = Math.min(n, start + BATCH);
                double scale = 1.0 / (end - start);
                java.util.Arrays.fill(g, 0);
                for (int r = start; r < end; r++) {
                    double[] xr = x[order[r]];
                    double err = forward(xr, h1, h2) - y[order[r]];
                    sse += err * err;
                    double dout = err * scale;
                    g[b3] += dout;
                    for (int j = 0; j < hidden; j++) {
                        g[w3 + j] += dout * h2[j];
                        d2[j] = dout * w[w3 + j] * (1 - h2[j] * h2[j]);
                    }
                    java.util.Arrays.fill(d1, 0);
                    for (int j = 0; j < hidden; j++) {
                        double dj = d2[j];
                        if (dj == 0) {
                            continue;
                        }
                        g[b2 + j] += dj;
                        int row = w2 + j * hidden;
                        for (int i = 0; i < hidden; i++) {
                            g[row + i] += dj * h1[i];
                            d1[i] += dj * w[row + i];
                        }
                    }
                    for (int j = 0; j < hidden; j++) {
                        double dj = d1[j] * (1 - h1[j] * h1[j]);
                        g[b1 + j] += dj;
                        int row = w1 + j * inputs;
                        for (int i = 0; i < inputs; i++) {
                            g[row + i] += dj * xr[i];
                        }
                    }
                }
                t++;
                double c1 = 1 - Math.pow(BETA1, t);
                double c2 = 1 - Math.pow(BETA2, t);
                for (int k = 0; k < w.length; k++) {
                    double gk = g[k] + (k < b3 ? WEIGHT_DECAY * w[k] : 0);
                    m[k] = BETA1 * m[k] + (1 - BETA1) * gk;
                    v[k] = BETA2 * v[k] + (1 - BETA2) * gk * gk;
                    w[k] -= LEARNING_RATE * (m[k] / c1) / (Math.sqrt(v[k] / c2) + EPSILON);
                }
            }
            mse = sse / n;
        }
        return mse;
    }
}
