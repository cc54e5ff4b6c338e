package org.tunekit.examples.study

import java.nio.file.Path
import java.util.Locale
import java.util.logging.Level
import java.util.logging.Logger
import kotlin.system.exitProcess
import org.tribuo.MutableDataset
import org.tribuo.Trainer
import org.tribuo.classification.Label
import org.tribuo.classification.evaluation.LabelEvaluator
import org.tribuo.classification.sgd.linear.LinearSGDTrainer
import org.tribuo.classification.sgd.objectives.Hinge
import org.tribuo.classification.sgd.objectives.LogMulticlass
import org.tribuo.evaluation.KFoldSplitter
import org.tribuo.evaluation.KFoldSplitter.TrainTestFold
import org.tribuo.math.optimisers.AdaGrad
import org.tribuo.math.optimisers.Adam
import org.tribuo.math.optimisers.SGD
import org.tribuo.transform.TransformTrainer
import org.tribuo.transform.TransformationMap
import org.tribuo.transform.transformations.MeanStdDevTransformation
import org.tunekit.sdk.space.SearchSpace
import org.tunekit.study.OptimizeOptions
import org.tunekit.study.Storage
import org.tunekit.study.Study
import org.tunekit.study.Trial
import org.tunekit.study.TrialPrunedException
import org.tunekit.study.TrialState

/*
 * Tunes a linear classifier trained by stochastic gradient descent (Tribuo) on the wine data: TPE suggests the
 * optimiser, its learning rate, the number of epochs, the minibatch size and the loss; each trial is scored by
 * 5-fold cross-validated accuracy and reports the mean accuracy so far after each fold, so that the Percentile
 * assessor stops, from the second fold on, a trial that falls in the worst quarter; the study keeps its trials in an
 * experiment folder that `tunekit results` reads.
 *
 *     TuneWineKt [--trials N] [--threads N] [--storage FOLDER]
 *
 * Running it again on the same folder goes on with the stored study.
 */

private const val SEED = 7L
private const val FOLDS = 5

private val SPACE: SearchSpace = SearchSpace.builder()
    .choice("optimiser", "adagrad", "adam", "sgd")
    .loguniform("learning_rate", 1e-4, 1.0)
    .randint("epochs", 1, 31)
    .choice("minibatch", 1, 8, 32)
    .choice("loss", "log", "hinge")
    .build()

/** The command line: how many trials, how many at a time, and where the study is kept. */
data class Options(val trials: Int = 40, val threads: Int = 2, val storage: Path = Path.of("runs", "tribuo")) {
    companion object {
        const val USAGE = "usage: TuneWineKt [--trials N] [--threads N] [--storage FOLDER]"

        fun parse(args: Array<String>): Options {
            var options = Options()
            for ((flag, value) in args.toList().chunked(2).map { it[0] to it.getOrNull(1) }) {
                requireNotNull(value) { "$flag needs a value; $USAGE" }
                options = when (flag) {
                    "--trials" -> options.copy(trials = value.toInt())
                    "--threads" -> options.copy(threads = value.toInt())
                    "--storage" -> options.copy(storage = Path.of(value))
                    else -> throw IllegalArgumentException("unknown argument $flag; $USAGE")
                }
            }
            return options
        }
    }
}

/** Scores a trial's parameters by cross-validation on the same folds for every trial. */
class WineObjective(data: MutableDataset<Label>) {
    private val folds: List<TrainTestFold<Label>> = KFoldSplitter<Label>(FOLDS, SEED).split(data, true).asSequence().toList()

    /**
     * The mean accuracy over the folds of a model trained with the trial's parameters (features standardised on
     * each fold's training part), the mean so far reported after each fold.
     *
     * @throws TrialPrunedException when the study's assessor judges the trial will not do well
     */
    fun crossValidatedAccuracy(trial: Trial): Double {
        val trainer = TransformTrainer(linearModel(trial), TransformationMap(listOf(MeanStdDevTransformation())))
        var sum = 0.0
        for ((i, fold) in folds.withIndex()) {
            val model = trainer.train(fold.train)
            sum += LabelEvaluator().evaluate(model, fold.test).accuracy()
            val soFar = sum / (i + 1)
            trial.report(i + 1L, soFar)
            if (trial.shouldPrune()) {
                throw TrialPrunedException("accuracy %.3f after %d folds".format(Locale.ROOT, soFar, i + 1))
            }
        }
        return sum / folds.size
    }

    private fun linearModel(trial: Trial): Trainer<Label> {
        val rate = trial.getDouble("learning_rate")
        val optimiser = when (val name = trial.getString("optimiser")) {
            "adagrad" -> AdaGrad(rate)
            "adam" -> Adam(rate, 0.9, 0.999, 1e-6)
            "sgd" -> SGD.getLinearDecaySGD(rate)
            else -> error("no optimiser $name")
        }
        val loss = if (trial.getString("loss") == "log") LogMulticlass() else Hinge()
        return LinearSGDTrainer(loss, optimiser, trial.getInt("epochs"), -1, trial.getInt("minibatch"), SEED)
    }
}

/** Tribuo logs each model it trains (java.util.logging keeps only weak references to its loggers: held here). */
private val tribuoLog: Logger = Logger.getLogger("org.tribuo").apply { level = Level.WARNING }

fun main(args: Array<String>) {
    val options = try {
        Options.parse(args)
    } catch (e: IllegalArgumentException) {
        System.err.println(e.message)
        exitProcess(2)
    }
    val data = Wine.load()
    val objective = WineObjective(data)
    println("${data.size()} wines, ${Wine.FEATURES.size} features, $FOLDS-fold cross-validation; " +
        "${options.trials} trials, ${options.threads} at a time, stored in ${options.storage.toAbsolutePath().normalize()}")

    Study.named("tribuo-wine")
        .space(SPACE)
        .tuner("TPE").seed(SEED).maximize()
        // from the second fold on, once 5 trials have completed, stops a trial below three quarters of them
        .assessor("Percentile", mapOf("percentile" to 75L, "n_startup_trials" to 5L, "n_warmup_steps" to 1L))
        .storage(Storage.sqlite(options.storage))
        .loadIfExists()
        .open()
        .use { study ->
            val before = study.trials().size
            study.optimize(objective::crossValidatedAccuracy, OptimizeOptions.trials(options.trials).threads(options.threads))

            val trials = study.trials()
            val states = trials.drop(before).groupingBy { it.state }.eachCount()
            println("${trials.size - before} trials run: ${states[TrialState.SUCCEEDED] ?: 0} succeeded, " +
                "${states[TrialState.EARLY_STOPPED] ?: 0} pruned, ${states[TrialState.FAILED] ?: 0} failed (${trials.size} in the study)")
            if (trials.any { it.state == TrialState.SUCCEEDED }) {
                val best = study.bestTrial()
                println("Best trial: #%d, cross-validated accuracy %.4f, with %s".format(Locale.ROOT, best.number, best.value().get(), best.parameters.values()))
            } else {
                println("No trial succeeded.")
            }
            println("See every trial: ./tunekit results ${options.storage}")
        }
}
