package org.tunekit.sdk.testkit;

/**
 * One of the shared contract checks of {@link TunerTestKit}. A tuner for which a check does not
 * apply opts out with {@link TunerTestKit#skip(Check, String)}, giving the reason.
 */
public enum Check {
    /** Every suggestion lies inside the search space, for spaces with all ten NNI types and nested choices. */
    IN_SPACE("every suggestion lies inside the search space"),
    /**
     * Two instances with the same arguments suggest the same parameter sequence; when the arguments
     * hold a numeric {@code seed}, another seed gives another sequence.
     */
    SEED("the same seed gives the same parameter sequence"),
    /** A batch ({@code generateMultipleParameters} of 8) is complete, inside the space and free of duplicates. */
    BATCH("a batch of 8 holds no duplicates"),
    /** {@code importData} is accepted and the suggestions after it stay valid. */
    IMPORT_DATA("importData is accepted and does not break suggestions"),
    /**
     * A fresh instance resumed as the dispatcher resumes one (from its checkpoint when the tuner
     * implements {@code loadCheckpoint}, else from every earlier result through {@code importData})
     * suggests what the uninterrupted instance suggests for the same ids, one at a time and in a batch,
     * and on a finite space suggests nothing again that it has a result for.
     */
    RESUME("a resumed instance continues the same sequence"),
    /** No parameter set is suggested twice while a finite space still has unseen ones. */
    NO_DUPLICATES("no duplicate suggestions on a finite space"),
    /** {@code NoMoreTrialsException} once every parameter set of a small finite space has been suggested. */
    EXHAUSTION("NoMoreTrialsException once a small finite space is exhausted");

    private final String description;

    Check(String description) {
        this.description = description;
    }

    /** What the check asserts, in a few words. */
    public String description() {
        return description;
    }
}
