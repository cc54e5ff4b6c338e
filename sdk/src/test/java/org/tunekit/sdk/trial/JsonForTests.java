package org.tunekit.sdk.trial;

/** Lets tests in other packages read JSON text with the SDK's own strict reader. */
public final class JsonForTests {
    private JsonForTests() {}

    /**
     * Parses JSON text into plain Java values.
     *
     * @throws IllegalArgumentException when the text is not JSON
     */
    public static Object parse(String text) {
        return Json.parse(text);
    }
}
