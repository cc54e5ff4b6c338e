package org.tunekit.katib;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.ValidateAlgorithmSettingsReply;
import org.tunekit.katib.api.ValidateAlgorithmSettingsRequest;

/** Katib's {@code Suggestion} service over a {@link Suggester}. */
final class SuggestionService extends SuggestionGrpc.SuggestionImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(SuggestionService.class);

    private final Suggester suggester;

    SuggestionService(Suggester suggester) {
        this.suggester = suggester;
    }

    @Override
    public void getSuggestions(GetSuggestionsRequest request, StreamObserver<GetSuggestionsReply> out) {
        GetSuggestionsReply reply;
        try {
            reply = suggester.suggest(request);
        } catch (KatibException e) {
            LOG.warn("GetSuggestions for experiment {}: {} {}", request.getExperiment().getName(), e.code(), e.getMessage());
            out.onError(e.toStatus());
            return;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            LOG.error("GetSuggestions for experiment {} failed", request.getExperiment().getName(), e);
            out.onError(Status.INTERNAL.withDescription("GetSuggestions failed: " + e).asRuntimeException());
            return;
        }
        out.onNext(reply);
        out.onCompleted();
    }

    @Override
    public void validateAlgorithmSettings(ValidateAlgorithmSettingsRequest request, StreamObserver<ValidateAlgorithmSettingsReply> out) {
        try {
            if (!request.hasExperiment()) {
                throw KatibException.invalid("the request has no experiment");
            }
            suggester.validate(request.getExperiment());
        } catch (KatibException e) {
            LOG.info("ValidateAlgorithmSettings for experiment {}: {} {}", request.getExperiment().getName(), e.code(), e.getMessage());
            out.onError(e.toStatus());
            return;
        } catch (RuntimeException e) {
            LOG.error("ValidateAlgorithmSettings for experiment {} failed", request.getExperiment().getName(), e);
            out.onError(Status.INTERNAL.withDescription("ValidateAlgorithmSettings failed: " + e).asRuntimeException());
            return;
        }
        out.onNext(ValidateAlgorithmSettingsReply.getDefaultInstance());
        out.onCompleted();
    }
}
