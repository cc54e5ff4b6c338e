package org.tunekit.runner.manager;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A trial added by hand, as the manager took it: the parameter id its parameters were given. Its
 * {@linkplain #answer answer} is the sentence recorded for the request that added it ("parameters 7
 * added: they run next"), and {@link #fromAnswer} reads such a recorded sentence back: the one place
 * where that text is written and read, so that stores written before (which hold only the text) stay readable.
 *
 * @param parameterId the id its parameters run under
 */
public record AddedTrial(long parameterId) {
    private static final Pattern ANSWER = Pattern.compile("parameters (\\d+) added\\b.*", Pattern.DOTALL);

    /** The answer to the request that added it: "parameters 7 added: they run next". */
    public String answer() {
        return "parameters " + parameterId + " added: they run next";
    }

    /** The added trial a recorded answer names, or empty when the answer is not one to an added trial. */
    public static Optional<AddedTrial> fromAnswer(String answer) {
        if (answer == null) {
            return Optional.empty();
        }
        Matcher m = ANSWER.matcher(answer);
        return m.matches() ? Optional.of(new AddedTrial(Long.parseLong(m.group(1)))) : Optional.empty();
    }

    /** Its {@linkplain #answer answer}. */
    @Override
    public String toString() {
        return answer();
    }
}
