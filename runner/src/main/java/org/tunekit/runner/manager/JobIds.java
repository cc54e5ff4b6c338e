package org.tunekit.runner.manager;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;

/**
 * The job ids of one experiment's trials, five characters each and never given twice: random ones, or
 * in a lock-step run ids that depend on nothing but the order of its trials. Used on the manager's thread.
 */
final class JobIds {
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final SecureRandom random = new SecureRandom();
    private final Set<String> used = new HashSet<>();

    /** The job id of the trial with this sequence in a lock-step run: "T" and the sequence in base 36, five characters in all. */
    static String sequential(int sequence) {
        String s = Integer.toString(sequence, 36);
        return "T" + "0000".substring(Math.min(4, s.length())) + s;
    }

    /** Keeps an id given before (a resumed experiment's) from being given again. */
    void reserve(String jobId) {
        used.add(jobId);
    }

    /**
     * A new job id for the trial with this sequence.
     *
     * @param lockStep true for the {@linkplain #sequential sequential} id, unless it was given before
     */
    String next(int sequence, boolean lockStep) {
        if (lockStep) {
            // a simulated run's ids depend on nothing but the order of its trials
            String id = sequential(sequence);
            if (used.add(id)) {
                return id;
            }
        }
        while (true) {
            StringBuilder sb = new StringBuilder(5);
            for (int i = 0; i < 5; i++) {
                sb.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
            }
            if (used.add(sb.toString())) {
                return sb.toString();
            }
        }
    }
}
