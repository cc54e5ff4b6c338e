package org.tunekit.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Compares a stored study's definition with the one a program opens it with. */
final class Definitions {
    private Definitions() {}

    /**
     * @throws StudyException naming each difference, when {@code asked} is not the definition {@code stored} was made with
     */
    static void requireSame(StudyDefinition stored, StudyDefinition asked, String where) {
        List<String> diffs = new ArrayList<>();
        if (!stored.space().equals(asked.space())) {
            diffs.add("search space " + stored.space().definition() + " vs " + asked.space().definition());
        }
        if (!stored.tuner().equalsIgnoreCase(asked.tuner()) || !stored.tunerArguments().equals(asked.tunerArguments())) {
            diffs.add("tuner " + stored.tuner() + " " + stored.tunerArguments() + " vs " + asked.tuner() + " " + asked.tunerArguments());
        }
        if (!Objects.equals(stored.assessor(), asked.assessor()) || !stored.assessorArguments().equals(asked.assessorArguments())) {
            diffs.add("assessor " + stored.assessor() + " " + stored.assessorArguments() + " vs " + asked.assessor() + " " + asked.assessorArguments());
        }
        if (!stored.objectives().equals(asked.objectives())) {
            diffs.add("objectives " + stored.objectives() + " vs " + asked.objectives());
        }
        if (!diffs.isEmpty()) {
            throw new StudyException("the study '" + stored.name() + "' in " + where + " was made with another definition (stored vs asked): "
                    + String.join("; ", diffs));
        }
    }
}
