package org.tunekit.gpus;

import java.io.IOException;

/** {@code nvidia-smi} was found but failed, hung, or printed something that could not be read; the message says which and names the command. */
public final class NvidiaSmiException extends IOException {
    public NvidiaSmiException(String message) {
        super(message);
    }

    public NvidiaSmiException(String message, Throwable cause) {
        super(message, cause);
    }
}
