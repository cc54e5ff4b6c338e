package org.tunekit.examples.study;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.study.OptimizeOptions;
import org.tunekit.study.Storage;
import org.tunekit.study.StudyBuilder;
import org.tunekit.study.Study;
import org.tunekit.study.Trial;
import org.tunekit.study.TrialPrunedException;
import org.tunekit.study.TrialRecord;
import org.tunekit.study.TrialState;

/**
 * Tunes gradient-boosted trees (XGBoost) on the Wisconsin breast cancer data: TPE suggests the learning rate,
 * depth, row subsample, L2 penalty and growth policy; each trial boosts {@value #ROUNDS} rounds on 5 folds at once
 * and reports the mean validation log-loss every {@value #REPORT_EVERY} rounds, so that Medianstop stops the
 * trials that fall behind; the study keeps its trials in an experiment folder that {@code tunekit results} reads.
 *
 * <pre>
 * TuneXgboost [--trials N] [--threads N] [--storage FOLDER | --postgres JDBC_URL]
 * </pre>
 *
 * Running it again on the same folder goes on with the stored study: its tuner first learns every stored result.
 * With {@code --postgres} (user and password in {@code PGUSER} and {@code PGPASSWORD}) the study lives in that
 * database, and any number of these programs, on any machines, work on it together ({@code run-workers.sh}).
 */
public final class TuneXgboost {
    static final int ROUNDS = 200;
    static final int REPORT_EVERY = 20;
    static final int FOLDS = 5;
    static final long SEED = 7;

    static final SearchSpace SPACE = SearchSpace.builder()
            .loguniform("eta", 0.005, 0.5)
            .randint("max_depth", 1, 9)
            .uniform("subsample", 0.5, 1.0)
            .loguniform("lambda", 0.01, 100)
            .choice("grow_policy", "depthwise", "lossguide")
            .build();

    private final BreastCancer data;
    private final List<BreastCancer.Fold> folds;

    TuneXgboost(BreastCancer data) {
        this.data = data;
        this.folds = data.stratifiedFolds(FOLDS, SEED);
    }

    public static void main(String[] args) throws Exception {
        int trials = 40;
        int threads = 2;
        Path storage = Path.of("runs", "xgboost");
        String postgres = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--trials" -> trials = Integer.parseInt(required(args[i], value));
                case "--threads" -> threads = Integer.parseInt(required(args[i], value));
                case "--storage" -> storage = Path.of(required(args[i], value));
                case "--postgres" -> postgres = required(args[i], value);
                default -> {
                    System.err.println("unknown argument " + args[i]
                            + "; usage: TuneXgboost [--trials N] [--threads N] [--storage FOLDER | --postgres JDBC_URL]");
                    System.exit(2);
                }
            }
            i++;
        }

        TuneXgboost objective = new TuneXgboost(BreastCancer.load());
        String where = postgres != null ? postgres : storage.toAbsolutePath().normalize().toString();
        System.out.printf("%s, %d-fold cross-validation, %d boosting rounds; %d trials, %d at a time, stored in %s%n",
                objective.data, FOLDS, ROUNDS, trials, threads, where);
        StudyBuilder builder = Study.named("xgboost-breast-cancer")
                .space(SPACE)
                .tuner("TPE").seed(SEED).minimize()
                // judged from the third report on, against the trials that completed
                .assessor("Medianstop", Map.of("start_step", 3L))
                // the first program creates the study, the next ones (and later runs) go on with it
                .loadIfExists();
        if (postgres != null) {
            // shared by every worker; a worker that dies has its trial run again by another
            builder.storage(Storage.postgres(postgres, System.getenv("PGUSER"), System.getenv("PGPASSWORD"))).retryFailedTrials();
        } else {
            builder.storage(Storage.sqlite(storage));
        }
        try (Study study = builder.open()) {
            // the trials this program ran (other programs may run trials of the same study meanwhile)
            Map<TrialState, Integer> ran = new java.util.concurrent.ConcurrentHashMap<>();
            study.optimize(objective::crossValidatedLogLoss, OptimizeOptions.trials(trials).threads(threads)
                    .callback((s, t) -> ran.merge(t.state(), 1, Integer::sum)));
            printSummary(study, ran, postgres != null ? null : storage);
        }
    }

    /**
     * The objective: the trial's parameters boosted on every fold in step, the mean validation log-loss reported every
     * {@value #REPORT_EVERY} rounds; the value is that loss after the last round.
     *
     * @throws TrialPrunedException when the study's assessor judges the trial will not do well
     */
    double crossValidatedLogLoss(Trial trial) throws XGBoostError {
        Map<String, Object> params = Map.of(
                "objective", "binary:logistic",
                "eta", trial.getDouble("eta"),
                "max_depth", trial.getInt("max_depth"),
                "subsample", trial.getDouble("subsample"),
                "lambda", trial.getDouble("lambda"),
                "grow_policy", trial.getString("grow_policy"),
                "tree_method", "hist",
                // one core per trial: the study runs trials side by side
                "nthread", 1,
                "seed", SEED,
                "verbosity", 0);
        List<DMatrix> matrices = new ArrayList<>();
        List<Booster> boosters = new ArrayList<>();
        try {
            List<DMatrix> train = new ArrayList<>();
            List<DMatrix> valid = new ArrayList<>();
            for (BreastCancer.Fold fold : folds) {
                train.add(matrix(fold.train(), matrices));
                valid.add(matrix(fold.valid(), matrices));
                boosters.add(XGBoost.train(train.get(train.size() - 1), params, 0, Map.of(), null, null));
            }
            double loss = Double.NaN;
            for (int round = 0; round < ROUNDS; round++) {
                for (int f = 0; f < FOLDS; f++) {
                    boosters.get(f).update(train.get(f), round);
                }
                if ((round + 1) % REPORT_EVERY == 0) {
                    double sum = 0;
                    for (int f = 0; f < FOLDS; f++) {
                        sum += logLoss(boosters.get(f).predict(valid.get(f)), data.labels(folds.get(f).valid()));
                    }
                    loss = sum / FOLDS;
                    trial.report(round + 1, loss);
                    if (trial.shouldPrune()) {
                        throw new TrialPrunedException(String.format(Locale.ROOT, "log-loss %.4f after %d rounds", loss, round + 1));
                    }
                }
            }
            return loss;
        } finally {
            boosters.forEach(Booster::dispose);
            matrices.forEach(DMatrix::dispose);
        }
    }

    private DMatrix matrix(int[] rows, List<DMatrix> made) throws XGBoostError {
        DMatrix m = new DMatrix(data.flatFeatures(rows), rows.length, BreastCancer.COLUMNS, Float.NaN);
        made.add(m);
        m.setLabel(data.labels(rows));
        return m;
    }

    /** The mean negative log-likelihood of the labels under the predicted probabilities of class 1. */
    static double logLoss(float[][] predicted, float[] labels) {
        double sum = 0;
        for (int i = 0; i < labels.length; i++) {
            double p = Math.min(Math.max(predicted[i][0], 1e-15), 1 - 1e-15);
            sum -= labels[i] == 1 ? Math.log(p) : Math.log(1 - p);
        }
        return sum / labels.length;
    }

    private static void printSummary(Study study, Map<TrialState, Integer> ran, Path storage) {
        List<TrialRecord> all = study.trials();
        System.out.printf("%d trials run here: %d succeeded, %d pruned, %d failed (%d in the study)%n",
                ran.values().stream().mapToInt(Integer::intValue).sum(), ran.getOrDefault(TrialState.SUCCEEDED, 0),
                ran.getOrDefault(TrialState.EARLY_STOPPED, 0), ran.getOrDefault(TrialState.FAILED, 0), all.size());
        Optional<TrialRecord> best = all.stream().anyMatch(t -> t.state() == TrialState.SUCCEEDED) ? Optional.of(study.bestTrial()) : Optional.empty();
        best.ifPresentOrElse(
                t -> System.out.printf(Locale.ROOT, "Best trial: #%d, cross-validated log-loss %.4f, with %s%n", t.number(), t.value().orElseThrow(),
                        t.parameters().values()),
                () -> System.out.println("No trial succeeded."));
        if (storage != null) {
            System.out.println("See every trial: ./tunekit results " + storage);
        }
    }

    private static String required(String flag, String value) {
        if (value == null) {
            System.err.println(flag + " needs a value");
            System.exit(2);
        }
        return value;
    }
}
