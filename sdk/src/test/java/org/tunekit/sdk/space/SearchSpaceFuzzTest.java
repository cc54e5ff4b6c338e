package org.tunekit.sdk.space;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.internal.Json;

/**
 * Coverage-guided fuzzing of {@link SearchSpace#parse} on JSON text: a definition is parsed or
 * refused with {@link InvalidSearchSpaceException} or {@link IllegalArgumentException}; and every
 * parameter set sampled from a space it parsed fits that space ({@code violation} is empty).
 */
class SearchSpaceFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void parsesOrRefusesAndSamplesFit(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Object json;
        try {
            json = Json.parse(text);
        } catch (IllegalArgumentException notJson) {
            return; // the JSON reader is not the target
        }
        if (!(json instanceof Map<?, ?> map)) {
            return;
        }
        SearchSpace space;
        try {
            @SuppressWarnings("unchecked")
            Map<String, ?> definition = (Map<String, ?>) map;
            space = SearchSpace.parse(definition);
        } catch (IllegalArgumentException refused) {
            return; // InvalidSearchSpaceException is one
        }
        SplittableRandom rng = new SplittableRandom(text.hashCode());
        for (int i = 0; i < 4; i++) {
            Parameters p = space.sample(rng);
            Optional<String> violation = space.violation(p);
            if (violation.isPresent()) {
                throw new AssertionError("sampled " + p.values() + " from " + text + " but: " + violation.get());
            }
        }
    }
}
