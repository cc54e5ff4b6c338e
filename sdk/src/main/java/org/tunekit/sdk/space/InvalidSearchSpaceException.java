package org.tunekit.sdk.space;

/** A search space is malformed; the message names the parameter path and what is wrong with it. */
public class InvalidSearchSpaceException extends IllegalArgumentException {
    private final String path;

    /** Creates the exception for the parameter at {@code path} (empty for the space as a whole). */
    public InvalidSearchSpaceException(String path, String problem) {
        super(path.isEmpty() ? "invalid search space: " + problem : "invalid search space: parameter '" + path + "': " + problem);
        this.path = path;
    }

    /** The path of the offending parameter, such as {@code model/tree/depth}; empty for the whole space. */
    public String path() {
        return path;
    }
}
