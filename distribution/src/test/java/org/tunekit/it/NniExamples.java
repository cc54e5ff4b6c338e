package org.tunekit.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * NNI's own scikit-learn example ({@code examples/trials/sklearn/classification} of NNI's repository:
 * an SVC on the digits data set), as {@code distribution/nni-trial-side.sh} lays it out beside NNI's
 * trial code ({@code $NNI_TRIAL_SIDE/examples/sklearn-classification}). Its trial runs unchanged; only
 * the config's place to run and its number of trials are the tests' own.
 */
final class NniExamples {
    static final Path TRIAL_SIDE = Path.of(System.getenv().getOrDefault("NNI_TRIAL_SIDE", System.getProperty("user.home") + "/nni-trial-side"));
    static final Path SKLEARN = TRIAL_SIDE.resolve("examples/sklearn-classification");
    static final Path NNI_V3 = TRIAL_SIDE.resolve("v3");

    private NniExamples() {}

    /** Skips the test unless NNI's example, NNI 3's trial code and scikit-learn for /usr/bin/python3 are there. */
    static void assumeSklearnExample() throws Exception {
        assumeTrue(Files.isRegularFile(SKLEARN.resolve("main.py")), "NNI's sklearn example is not at " + SKLEARN
                + " (run distribution/nni-trial-side.sh with a fetch of github:microsoft/nni)");
        assumeTrue(Files.isDirectory(NNI_V3.resolve("nni")), "no NNI 3 trial code at " + NNI_V3 + " (distribution/nni-trial-side.sh)");
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import sklearn").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "/usr/bin/python3 has no scikit-learn (apt-get install python3-sklearn)");
    }

    /**
     * NNI's config of the example with its own training service replaced by {@code trainingService} (YAML
     * lines under the key, indented by two) and {@code trials} trials, its code in {@code code}.
     */
    static String sklearnConfig(Path code, String trainingService, int trials) throws IOException {
        String nni = Files.readString(SKLEARN.resolve("config.yml"));
        String head = nni.substring(0, nni.indexOf("trainingService:"));
        return head.replaceFirst("maxTrialNumber: *\\d+", "maxTrialNumber: " + trials)
                .replace("searchSpaceFile: search_space.json", "searchSpaceFile: " + code.resolve("search_space.json"))
                + "trialCodeDirectory: " + code + "\ntrainingService:\n" + trainingService.indent(2);
    }

    /** Copies the example's trial and search space, and (when {@code withNni}) NNI 3's trial code, into {@code code}. */
    static Path copySklearn(Path code, boolean withNni) throws IOException {
        Files.createDirectories(code);
        for (String f : new String[] {"main.py", "search_space.json"}) {
            Files.copy(SKLEARN.resolve(f), code.resolve(f));
        }
        if (withNni) {
            copyNni(code);
        }
        return code;
    }

    /** Copies NNI 3's trial code into {@code code}, so that a trial there imports it from its own folder (a remote user cannot read ours). */
    static void copyNni(Path code) throws IOException {
        try (var all = Files.walk(NNI_V3)) {
            for (Path from : all.toList()) {
                Path to = code.resolve(NNI_V3.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
    }
}
