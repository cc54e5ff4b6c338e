package org.tunekit.sdk.objectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ParetoAndHypervolumeTest {

    @Test
    void dominanceNeedsOneStrictlyBetterCoordinate() {
        assertThat(Pareto.dominates(new double[] {1, 2}, new double[] {1, 3})).isTrue();
        assertThat(Pareto.dominates(new double[] {1, 2}, new double[] {1, 2})).isFalse();
        assertThat(Pareto.dominates(new double[] {0, 3}, new double[] {1, 2})).isFalse();
        assertThat(Pareto.dominates(new double[] {Double.NaN, 0}, new double[] {1, 2})).isFalse();
        assertThatThrownBy(() -> Pareto.dominates(new double[] {1}, new double[] {1, 2})).hasMessageContaining("1 and 2");
    }

    @Test
    void nonDominatedSortingRanksFronts() {
        double[][] p = {{1, 1}, {2, 2}, {1, 3}, {3, 1}, {2, 2}, {3, 3}, {0, 5}};
        assertThat(Pareto.ranks(p)).containsExactly(0, 1, 1, 1, 1, 2, 0);
        assertThat(Pareto.fronts(p)).hasSize(3);
        assertThat(Pareto.fronts(p).get(1)).containsExactly(1, 2, 3, 4);
        assertThat(Pareto.nondominated(p)).containsExactly(0, 6);
        assertThat(Pareto.nondominated(new double[0][])).isEmpty();
    }

    @Test
    void ranksAgreeWithTheDefinitionOnRandomPoints() {
        SplittableRandom r = new SplittableRandom(3);
        double[][] p = new double[60][3];
        for (double[] x : p) {
            for (int i = 0; i < 3; i++) {
                x[i] = r.nextInt(6);
            }
        }
        int[] rank = Pareto.ranks(p);
        for (int i = 0; i < p.length; i++) {
            // rank 0 exactly when undominated; otherwise some point of the rank just below dominates it, none of its own rank does
            boolean dominated = false;
            boolean byPrevious = false;
            for (int j = 0; j < p.length; j++) {
                if (Pareto.dominates(p[j], p[i])) {
                    dominated = true;
                    assertThat(rank[j]).isLessThan(rank[i]);
                    byPrevious |= rank[j] == rank[i] - 1;
                }
            }
            assertThat(rank[i] == 0).isEqualTo(!dominated);
            assertThat(rank[i] == 0 || byPrevious).isTrue();
        }
    }

    @Test
    void peelingGivesTheSameFirstFrontsAsTheFullSort() {
        SplittableRandom r = new SplittableRandom(5);
        for (int m = 2; m <= 3; m++) {
            double[][] p = new double[300][m];
            for (double[] x : p) {
                for (int i = 0; i < m; i++) {
                    x[i] = r.nextInt(40) / 4.0; // ties included
                }
            }
            java.util.List<int[]> all = Pareto.fronts(p);
            java.util.List<int[]> first = Pareto.fronts(p, 30);
            int covered = 0;
            for (int k = 0; k < first.size(); k++) {
                assertThat(first.get(k)).isEqualTo(all.get(k));
                covered += first.get(k).length;
            }
            assertThat(covered).isGreaterThanOrEqualTo(30);
            assertThat(covered - first.get(first.size() - 1).length).isLessThan(30);
            assertThat(Pareto.fronts(p, 1000)).hasSize(all.size());
        }
    }

    @Test
    void crowdingDistanceSumsNormalisedGaps() {
        double[][] p = {{0, 3}, {9, 9}, {1, 2}, {3, 0}};
        double[] d = Pareto.crowdingDistances(p, new int[] {0, 2, 3});
        assertThat(d[0]).isInfinite();
        assertThat(d[1]).isCloseTo(2.0, within(1e-12));
        assertThat(d[2]).isInfinite();
        assertThat(Pareto.crowdingDistances(p, new int[] {0, 1})).containsOnly(Double.POSITIVE_INFINITY);
    }

    @Test
    void twoObjectiveHypervolumeByHand() {
        double[][] staircase = {{1, 3}, {2, 2}, {3, 1}};
        assertThat(Hypervolume.of(staircase, new double[] {4, 4})).isEqualTo(6.0);
        // a dominated point, a duplicate and a point outside the reference box change nothing
        double[][] more = {{1, 3}, {2, 2}, {3, 1}, {3, 3}, {2, 2}, {5, 0}};
        assertThat(Hypervolume.of(more, new double[] {4, 4})).isEqualTo(6.0);
        assertThat(Hypervolume.contributions(staircase, new double[] {4, 4})).containsExactly(1.0, 1.0, 1.0);
        assertThat(Hypervolume.contributions(more, new double[] {4, 4})[3]).isZero();
        assertThat(Hypervolume.of(new double[0][], new double[] {1, 1})).isZero();
    }

    @Test
    void threeObjectiveHypervolumeByHand() {
        assertThat(Hypervolume.of(new double[][] {{0, 0, 0}}, new double[] {1, 2, 3})).isEqualTo(6.0);
        // two boxes of 4 and 2 overlapping in a unit cube
        assertThat(Hypervolume.of(new double[][] {{0, 0, 1}, {1, 1, 0}}, new double[] {2, 2, 2})).isEqualTo(5.0);
        assertThat(Hypervolume.contributions(new double[][] {{0, 0, 1}, {1, 1, 0}}, new double[] {2, 2, 2})).containsExactly(3.0, 1.0);
    }

    @Test
    void exactHypervolumeMatchesMonteCarlo() {
        for (int m = 2; m <= 4; m++) {
            SplittableRandom r = new SplittableRandom(11 + m);
            double[][] points = new double[40][m];
            for (double[] p : points) {
                // points near the simplex sum(x) = 1, some dominated, some outside the box
                double s = 0;
                for (int i = 0; i < m; i++) {
                    p[i] = r.nextDouble();
                    s += p[i];
                }
                double scale = 0.6 + 0.8 * r.nextDouble();
                for (int i = 0; i < m; i++) {
                    p[i] = p[i] / s * scale;
                }
            }
            double[] ref = new double[m];
            java.util.Arrays.fill(ref, 1.1);
            int samples = 400_000;
            int hits = 0;
            double[] u = new double[m];
            for (int k = 0; k < samples; k++) {
                for (int i = 0; i < m; i++) {
                    u[i] = r.nextDouble() * ref[i];
                }
                for (double[] p : points) {
                    boolean inside = true;
                    for (int i = 0; i < m && inside; i++) {
                        inside = p[i] <= u[i];
                    }
                    if (inside) {
                        hits++;
                        break;
                    }
                }
            }
            double box = Math.pow(1.1, m);
            double estimate = box * hits / samples;
            double standardError = box * Math.sqrt((double) hits / samples * (1 - (double) hits / samples) / samples);
            assertThat(Hypervolume.of(points, ref)).as("%d objectives", m).isCloseTo(estimate, within(4 * standardError));
        }
    }

    @Test
    void nadirReferenceAddsAMarginOfTheRange() {
        double[] ref = Hypervolume.nadirReference(new double[][] {{0, 5}, {2, 5}}, 0.1);
        assertThat(ref[0]).isCloseTo(2.2, within(1e-12));
        assertThat(ref[1]).isCloseTo(5.1, within(1e-12));
        assertThatThrownBy(() -> Hypervolume.nadirReference(new double[0][], 0.1)).hasMessageContaining("at least one point");
        assertThatThrownBy(() -> Hypervolume.of(new double[][] {{1, 1}}, new double[] {Double.NaN, 1})).hasMessageContaining("finite");
    }
}
