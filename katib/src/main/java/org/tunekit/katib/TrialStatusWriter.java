package org.tunekit.katib;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Marks a Katib Trial custom resource (group {@code kubeflow.org}, version {@code v1beta1}, plural
 * {@code trials}) early-stopped: appends the condition {@code type: EarlyStopped},
 * {@code status: "True"}, {@code reason: TrialEarlyStopped} to its status, through the Kubernetes API
 * (in a pod: its service account and namespace; elsewhere: the kubeconfig's).
 */
final class TrialStatusWriter implements AutoCloseable {
    static final ResourceDefinitionContext TRIALS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org").withVersion("v1beta1").withPlural("trials").withKind("Trial").withNamespaced(true).build();

    private final Supplier<KubernetesClient> factory;
    private KubernetesClient client;

    /** A writer whose client is made on first use from the environment (in-cluster configuration). */
    TrialStatusWriter() {
        this(() -> new KubernetesClientBuilder().build());
    }

    TrialStatusWriter(Supplier<KubernetesClient> factory) {
        this.factory = factory;
    }

    private synchronized KubernetesClient client() {
        if (client == null) {
            client = factory.get();
        }
        return client;
    }

    /**
     * Appends the EarlyStopped condition to the trial's status (once: a trial already marked is left as it is).
     *
     * @throws KatibException NOT_FOUND for an unknown trial, UNAVAILABLE when the API cannot be reached or refuses
     */
    void markEarlyStopped(String trialName) {
        if (trialName.isBlank()) {
            throw KatibException.invalid("SetTrialStatus needs a trial_name");
        }
        KubernetesClient c = client();
        String namespace = c.getNamespace() == null ? "default" : c.getNamespace();
        try {
            var resource = c.genericKubernetesResources(TRIALS).inNamespace(namespace).withName(trialName);
            GenericKubernetesResource trial = resource.get();
            if (trial == null) {
                throw new KatibException(io.grpc.Status.Code.NOT_FOUND, "no Trial " + trialName + " in namespace " + namespace);
            }
            Map<String, Object> status = map(trial.getAdditionalProperties().get("status"));
            List<Object> conditions = status.get("conditions") instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
            for (Object o : conditions) {
                if (o instanceof Map<?, ?> m && "EarlyStopped".equals(m.get("type"))) {
                    return;
                }
            }
            String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("type", "EarlyStopped");
            condition.put("status", "True");
            condition.put("reason", "TrialEarlyStopped");
            condition.put("message", "Trial is early stopped");
            condition.put("lastUpdateTime", now);
            condition.put("lastTransitionTime", now);
            conditions.add(condition);
            status.put("conditions", conditions);
            trial.getAdditionalProperties().put("status", status);
            c.genericKubernetesResources(TRIALS).inNamespace(namespace).resource(trial).updateStatus();
        } catch (KubernetesClientException e) {
            throw new KatibException(io.grpc.Status.Code.UNAVAILABLE, "updating the status of Trial " + trialName + " in namespace "
                    + namespace + " failed: " + e.getMessage());
        }
    }

    private static Map<String, Object> map(Object o) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (o instanceof Map<?, ?> given) {
            given.forEach((k, v) -> m.put(String.valueOf(k), v));
        }
        return m;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
        }
    }
}
