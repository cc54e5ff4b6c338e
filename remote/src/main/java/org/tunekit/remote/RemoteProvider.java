package org.tunekit.remote;

import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrainingServiceProvider;

/** {@code platform: remote}: NNI's remote training service, trials over SSH on the machines of {@code machineList}. */
public final class RemoteProvider implements TrainingServiceProvider {
    @Override
    public String platform() {
        return "remote";
    }

    @Override
    public TrainingService create(TrainingServiceContext context) {
        return new RemoteMachines(context);
    }
}
