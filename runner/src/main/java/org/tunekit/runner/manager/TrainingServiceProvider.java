package org.tunekit.runner.manager;

/**
 * Makes the {@link TrainingService} of one {@code trainingService.platform} other than {@code local}
 * (which the runner has built in): {@code remote}, {@code slurm}. Found with {@link java.util.ServiceLoader},
 * so a place to run trials is a module on the class path that registers a provider in
 * {@code META-INF/services/org.tunekit.runner.manager.TrainingServiceProvider}.
 */
public interface TrainingServiceProvider {
    /** The value of {@code trainingService.platform} it serves. */
    String platform();

    /**
     * Makes the service for one experiment. Cheap and without side effects: connecting, copying code
     * and checking that trials can be placed belong in {@link TrainingService#check()}.
     *
     * @throws IllegalArgumentException naming the bad setting by its path ({@code trainingService.partition: ...})
     */
    TrainingService create(TrainingServiceContext context);
}
