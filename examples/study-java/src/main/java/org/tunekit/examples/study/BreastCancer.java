package org.tunekit.examples.study;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * The Wisconsin diagnostic breast cancer data (569 tumours, 30 numeric features, 0 = malignant, 1 = benign), read
 * from {@code breast_cancer.csv} beside this class, and its split into stratified folds for cross-validation.
 *
 * @param features one row of {@link #COLUMNS} values per tumour
 * @param labels   0 or 1 per tumour
 */
record BreastCancer(float[][] features, float[] labels) {
    static final int COLUMNS = 30;

    /** The rows of one fold: those it trains on and those it validates on. */
    record Fold(int[] train, int[] valid) {}

    /**
     * Reads the data set. Its first line gives the number of rows and columns and the class names; each other
     * line has 30 features and the class.
     */
    static BreastCancer load() {
        try (InputStream in = BreastCancer.class.getResourceAsStream("breast_cancer.csv")) {
            if (in == null) {
                throw new IllegalStateException("breast_cancer.csv is not on the class path beside " + BreastCancer.class.getName());
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int rows = Integer.parseInt(r.readLine().split(",")[0]);
            float[][] x = new float[rows][];
            float[] y = new float[rows];
            for (int i = 0; i < rows; i++) {
                String line = r.readLine();
                String[] cells = line == null ? new String[0] : line.split(",");
                if (cells.length != COLUMNS + 1) {
                    throw new IllegalStateException("breast_cancer.csv, row " + (i + 1) + ": expected " + (COLUMNS + 1) + " cells, got "
                            + (line == null ? "the end of the file" : cells.length));
                }
                x[i] = new float[COLUMNS];
                for (int j = 0; j < COLUMNS; j++) {
                    x[i][j] = Float.parseFloat(cells[j]);
                }
                y[i] = Float.parseFloat(cells[COLUMNS]);
            }
            return new BreastCancer(x, y);
        } catch (IOException e) {
            throw new UncheckedIOException("reading breast_cancer.csv", e);
        }
    }

    int size() {
        return labels.length;
    }

    /**
     * Splits the rows into {@code k} folds, each class shuffled with {@code seed} and dealt round the folds, so that
     * every fold has about the same share of each class. The same seed gives the same folds.
     */
    List<Fold> stratifiedFolds(int k, long seed) {
        Random random = new Random(seed);
        List<List<Integer>> byFold = new ArrayList<>();
        for (int f = 0; f < k; f++) {
            byFold.add(new ArrayList<>());
        }
        int dealt = 0;
        for (float label : new float[] {0, 1}) {
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < size(); i++) {
                if (labels[i] == label) {
                    rows.add(i);
                }
            }
            Collections.shuffle(rows, random);
            for (int row : rows) {
                byFold.get(dealt++ % k).add(row);
            }
        }
        List<Fold> folds = new ArrayList<>();
        for (int f = 0; f < k; f++) {
            int[] valid = byFold.get(f).stream().mapToInt(Integer::intValue).sorted().toArray();
            boolean[] isValid = new boolean[size()];
            for (int row : valid) {
                isValid[row] = true;
            }
            int[] train = IntStream.range(0, size()).filter(i -> !isValid[i]).toArray();
            folds.add(new Fold(train, valid));
        }
        return folds;
    }

    /** The given rows' features, row after row, as XGBoost's dense matrices take them. */
    float[] flatFeatures(int[] rows) {
        float[] flat = new float[rows.length * COLUMNS];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(features[rows[i]], 0, flat, i * COLUMNS, COLUMNS);
        }
        return flat;
    }

    /** The given rows' labels. */
    float[] labels(int[] rows) {
        float[] out = new float[rows.length];
        for (int i = 0; i < rows.length; i++) {
            out[i] = labels[rows[i]];
        }
        return out;
    }

    @Override
    public String toString() {
        return "BreastCancer[" + size() + " rows, " + COLUMNS + " features, " + Arrays.toString(new long[] {count(0), count(1)})
                + " malignant/benign]";
    }

    private long count(float label) {
        long n = 0;
        for (float l : labels) {
            if (l == label) {
                n++;
            }
        }
        return n;
    }
}
