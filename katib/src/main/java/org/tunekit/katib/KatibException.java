package org.tunekit.katib;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * A request Tunekit cannot serve, with the gRPC status code Katib's controller sees and a message
 * that names what is wrong.
 */
final class KatibException extends RuntimeException {
    private final Status.Code code;

    KatibException(Status.Code code, String message) {
        super(message);
        this.code = code;
    }

    /** An INVALID_ARGUMENT: the experiment, its settings or the request itself is wrong. */
    static KatibException invalid(String message) {
        return new KatibException(Status.Code.INVALID_ARGUMENT, message);
    }

    Status.Code code() {
        return code;
    }

    StatusRuntimeException toStatus() {
        return Status.fromCode(code).withDescription(getMessage()).asRuntimeException();
    }
}
