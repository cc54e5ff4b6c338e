/*
 * A trial written in Java: it gets its hyperparameters x and lr from the manager that started it,
 * "trains" for 5 epochs reporting one intermediate result each, and reports the final result. The
 * result is a smooth function of the parameters, best at x = 0.3 and lr = 0.01.
 *
 * It needs only the SDK jar and a JDK 17 (no compilation step: java runs the source file).
 * With Tunekit's runner, run the experiment next to it from the repository's root:
 *
 *     ./tunekit run examples/java-trial/config.yml
 *
 * (the runner gives each trial the SDK jar's path as TUNEKIT_SDK_JAR). To build the jar yourself:
 *
 *     ./mvnw -B -ntp -pl sdk package -DskipTests
 *
 * Run it by hand (standalone: results are printed on standard error):
 *
 *     TUNEKIT_TRIAL_PARAMETERS='{"x": 0.2, "lr": 0.01}' \
 *         java -cp sdk/target/tunekit-sdk-0.1.0-SNAPSHOT.jar examples/java-trial/Train.java
 *
 * Run it as the trial of an experiment, by NNI's manager or Tunekit's local runner, with this
 * directory as the trial code directory, a trial command such as
 *
 *     java -cp /absolute/path/to/tunekit-sdk-0.1.0-SNAPSHOT.jar Train.java
 *
 * and a search space such as
 *
 *     {"x": {"_type": "uniform", "_value": [0, 1]}, "lr": {"_type": "loguniform", "_value": [0.0001, 0.1]}}
 *
 * The manager's environment variables tell the trial how to reach it.
 */

import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.trial.TrialClient;

public class Train {
    private static final int EPOCHS = 5;

    public static void main(String[] args) throws InterruptedException {
        TrialClient trial = TrialClient.fromEnvironment();
        Parameters p = trial.parameters();
        double x = parameter(p, "x", 0.5);
        double lr = parameter(p, "lr", 0.01);

        // The accuracy this configuration can reach, and how fast it gets there.
        double ceiling = 0.95 - Math.pow(x - 0.3, 2) - 0.05 * Math.pow(Math.log10(lr) + 2, 2);
        double rate = 0.4 + 20 * lr;

        double accuracy = 0;
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            accuracy = ceiling * (1 - Math.exp(-rate * epoch));
            trial.reportIntermediate(accuracy);
            Thread.sleep(100); // an epoch's work
        }
        trial.reportFinal(accuracy);
    }

    /** The parameter's value, or a default when the trial runs by hand without it. */
    private static double parameter(Parameters p, String name, double fallback) {
        return p.values().containsKey(name) ? p.getDouble(name) : fallback;
    }
}
