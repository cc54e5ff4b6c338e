package org.tunekit.katib;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.katib.api.EarlyStoppingGrpc;
import org.tunekit.katib.api.GetEarlyStoppingRulesReply;
import org.tunekit.katib.api.GetEarlyStoppingRulesRequest;
import org.tunekit.katib.api.SetTrialStatusReply;
import org.tunekit.katib.api.SetTrialStatusRequest;
import org.tunekit.katib.api.ValidateEarlyStoppingSettingsReply;
import org.tunekit.katib.api.ValidateEarlyStoppingSettingsRequest;

/**
 * Katib's {@code EarlyStopping} service: the rules of the algorithm the experiment names (Katib's
 * {@code medianstop}, or a Tunekit assessor a rule can carry; see {@link StoppingAlgorithms}) and the
 * Trial status update.
 */
final class EarlyStoppingService extends EarlyStoppingGrpc.EarlyStoppingImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(EarlyStoppingService.class);

    private final DbManagerLogs logs;
    private final TrialStatusWriter status;
    private final StoppingAlgorithms algorithms;

    EarlyStoppingService(DbManagerLogs logs, TrialStatusWriter status, StoppingAlgorithms algorithms) {
        this.logs = logs;
        this.status = status;
        this.algorithms = algorithms;
    }

    private interface Call<T> {
        T run();
    }

    private static <T> void answer(String what, StreamObserver<T> out, Call<T> call) {
        T reply;
        try {
            reply = call.run();
        } catch (KatibException e) {
            LOG.warn("{}: {} {}", what, e.code(), e.getMessage());
            out.onError(e.toStatus());
            return;
        } catch (RuntimeException e) {
            LOG.error("{} failed", what, e);
            out.onError(Status.INTERNAL.withDescription(what + " failed: " + e).asRuntimeException());
            return;
        }
        out.onNext(reply);
        out.onCompleted();
    }

    @Override
    public void getEarlyStoppingRules(GetEarlyStoppingRulesRequest request, StreamObserver<GetEarlyStoppingRulesReply> out) {
        answer("GetEarlyStoppingRules for experiment " + request.getExperiment().getName(), out, () -> {
            if (!request.hasExperiment()) {
                throw KatibException.invalid("the request has no experiment");
            }
            StoppingAlgorithms.Algorithm algorithm = algorithms.resolve(request.getExperiment().getSpec().getEarlyStopping());
            MedianStop.MetricLogs source = logs.at(request.getDbManagerAddress());
            return GetEarlyStoppingRulesReply.newBuilder()
                    .addAllEarlyStoppingRules(algorithm.rules(request.getExperiment(), request.getTrialsList(), source)).build();
        });
    }

    @Override
    public void setTrialStatus(SetTrialStatusRequest request, StreamObserver<SetTrialStatusReply> out) {
        answer("SetTrialStatus of trial " + request.getTrialName(), out, () -> {
            status.markEarlyStopped(request.getTrialName());
            return SetTrialStatusReply.getDefaultInstance();
        });
    }

    @Override
    public void validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest request,
                                              StreamObserver<ValidateEarlyStoppingSettingsReply> out) {
        answer("ValidateEarlyStoppingSettings", out, () -> {
            algorithms.resolve(request.getEarlyStopping());
            return ValidateEarlyStoppingSettingsReply.getDefaultInstance();
        });
    }
}
