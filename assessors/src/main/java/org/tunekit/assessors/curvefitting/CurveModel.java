package org.tunekit.assessors.curvefitting;

/**
 * The parametric learning-curve models of the ensemble, written for a curve that rises with the epoch
 * {@code x >= 1} towards an asymptote (most also fit a falling curve with a negative scale). Each gives
 * its value, its gradient in the parameters, bounds that keep it finite, and starting points computed
 * from the first and last observed value.
 */
enum CurveModel {
    /** {@code c - a x^(-α)}; parameters {@code c, a, α}. */
    POW3(new double[] {-1e6, -1e6, 1e-3}, new double[] {1e6, 1e6, 5}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - p[1] * Math.pow(x, -p[2]);
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double xa = Math.pow(x, -p[2]);
            g[0] = 1;
            g[1] = -xa;
            g[2] = p[1] * xa * Math.log(x);
            return p[0] - p[1] * xa;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {asymptote, asymptote - first, variant == 0 ? 0.5 : 1.0};
        }
    },
    /** {@code c - (a x + b)^(-α)}; parameters {@code c, a, b, α} with {@code a > 0, b >= 0}. */
    POW4(new double[] {-1e6, 1e-8, 0, 1e-3}, new double[] {1e6, 1e8, 1e8, 5}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - Math.pow(p[1] * x + p[2], -p[3]);
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double u = p[1] * x + p[2];
            double ua = Math.pow(u, -p[3]);
            g[0] = 1;
            g[1] = p[3] * ua / u * x;
            g[2] = p[3] * ua / u;
            g[3] = ua * Math.log(u);
            return p[0] - ua;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            double alpha = variant == 0 ? 0.5 : 1.0;
            double gap = Math.max(asymptote - first, 1e-3);
            double sum = Math.pow(gap, -1 / alpha);
            return new double[] {asymptote, sum / 2, sum / 2, alpha};
        }
    },
    /** {@code a ln x + b}; parameters {@code a, b}. */
    LOG_LINEAR(new double[] {-1e6, -1e6}, new double[] {1e6, 1e6}) {
        @Override
        double value(double x, double[] p) {
            return p[0] * Math.log(x) + p[1];
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            g[0] = Math.log(x);
            g[1] = 1;
            return p[0] * g[0] + p[1];
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {(asymptote - first) / Math.log(Math.max(n, 2)), first};
        }
    },
    /** {@code c - exp(-a x + b)}; parameters {@code c, a, b} with {@code a > 0}. */
    EXP3(new double[] {-1e6, 1e-6, -50}, new double[] {1e6, 10, 50}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - Math.exp(-p[1] * x + p[2]);
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double e = Math.exp(-p[1] * x + p[2]);
            g[0] = 1;
            g[1] = x * e;
            g[2] = -e;
            return p[0] - e;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            double a = (variant == 0 ? 2.0 : 5.0) / n;
            return new double[] {asymptote, a, Math.log(Math.max(asymptote - first, 1e-3)) + a};
        }
    },
    /** {@code c - a / ln(x + 1)}; parameters {@code c, a}. */
    ILOG2(new double[] {-1e6, -1e6}, new double[] {1e6, 1e6}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - p[1] / Math.log(x + 1);
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            g[0] = 1;
            g[1] = -1 / Math.log(x + 1);
            return p[0] + p[1] * g[1];
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {asymptote, (asymptote - first) * Math.log(2)};
        }
    },
    /** Weibull: {@code α - (α - β) exp(-(κ x)^δ)}; parameters {@code α, β, κ, δ}. */
    WEIBULL(new double[] {-1e6, -1e6, 1e-6, 1e-2}, new double[] {1e6, 1e6, 1e3, 10}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - (p[0] - p[1]) * Math.exp(-Math.pow(p[2] * x, p[3]));
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double t = Math.pow(p[2] * x, p[3]);
            double e = Math.exp(-t);
            double span = p[0] - p[1];
            g[0] = 1 - e;
            g[1] = e;
            g[2] = span * e * p[3] * t / p[2];
            g[3] = span * e * t * Math.log(p[2] * x);
            return p[0] - span * e;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {asymptote, first, (variant == 0 ? 1.0 : 3.0) / n, 1};
        }
    },
    /** Morgan-Mercer-Flodin: {@code α - (α - β) / (1 + (κ x)^δ)}; parameters {@code α, β, κ, δ}. */
    MMF(new double[] {-1e6, -1e6, 1e-6, 1e-2}, new double[] {1e6, 1e6, 1e3, 10}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - (p[0] - p[1]) / (1 + Math.pow(p[2] * x, p[3]));
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double t = Math.pow(p[2] * x, p[3]);
            double d = 1 + t;
            double span = p[0] - p[1];
            g[0] = 1 - 1 / d;
            g[1] = 1 / d;
            g[2] = span / (d * d) * p[3] * t / p[2];
            g[3] = span / (d * d) * t * Math.log(p[2] * x);
            return p[0] - span / d;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {asymptote, first, (variant == 0 ? 1.0 : 3.0) / n, 1};
        }
    },
    /** Janoschek: {@code α - (α - β) exp(-κ x^δ)}; parameters {@code α, β, κ, δ}. */
    JANOSCHEK(new double[] {-1e6, -1e6, 1e-6, 1e-2}, new double[] {1e6, 1e6, 1e3, 10}) {
        @Override
        double value(double x, double[] p) {
            return p[0] - (p[0] - p[1]) * Math.exp(-p[2] * Math.pow(x, p[3]));
        }

        @Override
        double gradient(double x, double[] p, double[] g) {
            double xd = Math.pow(x, p[3]);
            double e = Math.exp(-p[2] * xd);
            double span = p[0] - p[1];
            g[0] = 1 - e;
            g[1] = e;
            g[2] = span * e * xd;
            g[3] = span * e * p[2] * xd * Math.log(x);
            return p[0] - span * e;
        }

        @Override
        double[] start(double first, double asymptote, double n, int variant) {
            return new double[] {asymptote, first, (variant == 0 ? 1.0 : 3.0) / n, 1};
        }
    };

    private final double[] lower;
    private final double[] upper;

    CurveModel(double[] lower, double[] upper) {
        this.lower = lower;
        this.upper = upper;
    }

    /** The number of parameters. */
    int parameterCount() {
        return lower.length;
    }

    /** The curve at epoch {@code x}. */
    abstract double value(double x, double[] p);

    /** Writes the partial derivatives of {@link #value} in each parameter to {@code g}; returns the value. */
    abstract double gradient(double x, double[] p, double[] g);

    /**
     * A starting point for fitting a curve that starts at {@code first} and is expected to approach
     * {@code asymptote}, from {@code n} observed epochs; {@code variant} 0 or 1 gives two different starts.
     */
    abstract double[] start(double first, double asymptote, double n, int variant);

    /** Moves {@code p} into the parameter bounds, in place; returns it. */
    double[] clamp(double[] p) {
        for (int i = 0; i < p.length; i++) {
            if (Double.isNaN(p[i])) {
                p[i] = Math.max(lower[i], Math.min(upper[i], 0));
            }
            p[i] = Math.max(lower[i], Math.min(upper[i], p[i]));
        }
        return p;
    }
}
