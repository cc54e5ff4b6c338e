package org.tunekit.dispatcher.protocol;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of every payload parser and of {@link JsonCodec#parse}: any text is
 * parsed or refused with a {@link ProtocolException}, never another exception.
 */
class PayloadsFuzzTest {
    /** A parser under test; its only declared failure is {@link ProtocolException}. */
    private interface Parser {
        Object parse(String payload) throws ProtocolException;
    }

    private static void parsesOrRefuses(FuzzedDataProvider data, Parser parser) {
        String payload = data.consumeRemainingAsString();
        try {
            parser.parse(payload);
        } catch (ProtocolException expected) {
            // the declared error for a malformed payload
        }
    }

    @FuzzTest(maxDuration = "60s")
    void jsonParse(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> JsonCodec.parse(p, "fuzzed text"));
    }

    @FuzzTest(maxDuration = "60s")
    void searchSpace(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> Payloads.searchSpace(new Command(CommandType.INITIALIZE, p)));
    }

    @FuzzTest(maxDuration = "60s")
    void trialCount(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> {
            int n = Payloads.trialCount(new Command(CommandType.REQUEST_TRIAL_JOBS, p));
            if (n < 0) {
                throw new AssertionError("negative trial count " + n + " from " + p);
            }
            return n;
        });
    }

    @FuzzTest(maxDuration = "60s")
    void metric(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> Payloads.metric(new Command(CommandType.REPORT_METRIC_DATA, p)));
    }

    @FuzzTest(maxDuration = "60s")
    void trialEnd(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> Payloads.trialEnd(new Command(CommandType.TRIAL_END, p)));
    }

    @FuzzTest(maxDuration = "60s")
    void importData(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> Payloads.importData(new Command(CommandType.IMPORT_DATA, p)));
    }

    @FuzzTest(maxDuration = "60s")
    void customizedTrials(FuzzedDataProvider data) {
        parsesOrRefuses(data, p -> Payloads.customizedTrials(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, p)));
    }
}
