package org.tunekit.nniconfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fields of NNI 3's experiment config classes ({@code nni/experiment/config/}), as data: for each
 * class its fields in declaration order (the order of the JSON nnictl posts), their types and
 * defaults. A field without a default must be given; a nullable one may be {@code null}.
 */
final class ConfigSchema {
    private ConfigSchema() {}

    /** What a field holds. */
    enum Kind {
        STR("a string"), INT("an integer"), BOOL("true or false"), ANY("any value"),
        /** NNI's {@code PathLike}: made absolute against the config file's folder. */
        PATH("a path (a string)"),
        /** {@code Union[str, int]} read by NNI's {@code parse_time}. */
        TIME("a duration: a number of seconds, or a number and a unit among s, m, h, d such as '30m'"),
        /** {@code Union[str, int]} read by NNI's {@code parse_memory_size}. */
        MEMORY("a size: a number of megabytes, or a number and a unit such as '512mb' or '4gb'"),
        GPU_INDICES("GPU indices: a list of integers, one integer, or a string such as '0,1'"),
        /** A list of strings, each passed on as it is (Tunekit's {@code slurm} service's {@code sbatchOptions}). */
        STR_LIST("a list of strings"),
        /**
         * {@code trialGpuNumber}: NNI 3 declares {@code Optional[int]} (its type check refuses 0.5); Tunekit's
         * own runner also takes a fraction below 1, a share of one GPU. {@link NniConfig.Result#fractionalGpus}
         * tells a door that cannot do that (NNI's manager) to refuse it.
         */
        GPU_NUMBER("a number of GPUs: a whole number, or a fraction below 1 to share a GPU"),
        DICT("a mapping"),
        CONFIG("a mapping"),
        CONFIG_LIST("a list of mappings"),
        /** One training service (chosen by its {@code platform}) or a list of them (hybrid). */
        TRAINING_SERVICE("a mapping with 'platform' (or a list of them)");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    /** Marks a field that has no default: NNI's {@code MISSING}. */
    static final Object MISSING = new Object() {
        @Override
        public String toString() {
            return "MISSING";
        }
    };

    /**
     * One dataclass field.
     *
     * @param name     its name in camelCase, as the JSON has it
     * @param kind     what it holds
     * @param nullable whether {@code null} is allowed ({@code Optional[...]})
     * @param def      its default, {@code null}, or {@link #MISSING}
     * @param nested   for {@link Kind#CONFIG} and {@link Kind#CONFIG_LIST}: the nested class
     * @param choices  for a {@code Literal[...]}: the values allowed, else empty
     */
    record Field(String name, Kind kind, boolean nullable, Object def, Schema nested, List<String> choices) {
        /** The name with case and underscores dropped: how NNI matches keys ({@code max_trial_number} = {@code maxTrialNumber}). */
        String key() {
            return normalize(name);
        }
    }

    /** A config class: its name in NNI (for messages) and its fields in order. */
    record Schema(String className, List<Field> fields) {
        Field field(String key) {
            String k = normalize(key);
            return fields.stream().filter(f -> f.key().equals(k)).findFirst().orElse(null);
        }
    }

    static String normalize(String key) {
        return key.toLowerCase(Locale.ROOT).replace("_", "");
    }

    // ---- building blocks -------------------------------------------------------------------

    private static Field required(String name, Kind kind) {
        return new Field(name, kind, false, MISSING, null, List.of());
    }

    /** {@code Optional[...]} without a default: must be given, may be null. */
    private static Field requiredNullable(String name, Kind kind) {
        return new Field(name, kind, true, MISSING, null, List.of());
    }

    private static Field optional(String name, Kind kind) {
        return new Field(name, kind, true, null, null, List.of());
    }

    private static Field withDefault(String name, Kind kind, Object def) {
        return new Field(name, kind, false, def, null, List.of());
    }

    private static Field nullableWithDefault(String name, Kind kind, Object def) {
        return new Field(name, kind, true, def, null, List.of());
    }

    private static Field literal(String name, String value) {
        return new Field(name, Kind.STR, false, value, null, List.of(value));
    }

    private static Field config(String name, Schema nested, boolean nullable) {
        return new Field(name, Kind.CONFIG, nullable, nullable ? null : MISSING, nested, List.of());
    }

    private static Field configList(String name, Schema nested) {
        return new Field(name, Kind.CONFIG_LIST, false, MISSING, nested, List.of());
    }

    private static Schema schema(String className, Field... fields) {
        return new Schema(className, List.of(fields));
    }

    /** A training service class: the fields every one has ({@code TrainingServiceConfig}), then its own. */
    private static Schema trainingService(String className, String platform, Field... own) {
        List<Field> fields = new ArrayList<>();
        fields.add(literal("platform", platform));
        fields.addAll(SHORTCUT_FIELDS);
        fields.addAll(Arrays.asList(own));
        return new Schema(className, List.copyOf(fields));
    }

    // ---- NNI's classes -----------------------------------------------------------------------

    /**
     * {@code TrainingServiceConfig}'s fields after {@code platform}: when a training service leaves
     * one out, it is copied from the top level of the experiment config (NNI's "shortcuts").
     */
    static final List<Field> SHORTCUT_FIELDS = List.of(
            required("trialCommand", Kind.STR),
            required("trialCodeDirectory", Kind.PATH),
            // An integer in NNI 3: its classes declare Optional[int] (at the top level and in every training
            // service) and their type check (typeguard) refuses 0.5; there trials share a GPU only through
            // maxTrialNumberPerGpu (NNI's local and remote services schedule trialGpuNumber / maxTrialNumberPerGpu
            // of a GPU per trial). Tunekit's runner also takes a fraction below 1: see Kind.GPU_NUMBER.
            requiredNullable("trialGpuNumber", Kind.GPU_NUMBER),
            requiredNullable("nniManagerIp", Kind.STR),
            required("debug", Kind.BOOL));

    /** {@code _AlgorithmConfig}: what a {@code tuner}, {@code assessor} or {@code advisor} entry becomes. */
    static final Schema ALGORITHM = schema("AlgorithmConfig",
            optional("name", Kind.STR),
            optional("className", Kind.STR),
            optional("codeDirectory", Kind.PATH),
            optional("classArgs", Kind.DICT));

    /** {@code SharedStorageConfig} (the base class, which is what NNI ends up with for a mapping). */
    static final Schema SHARED_STORAGE = schema("SharedStorageConfig",
            required("storageType", Kind.STR),
            required("localMountPoint", Kind.PATH),
            required("remoteMountPoint", Kind.STR),
            required("localMounted", Kind.STR),
            optional("storageAccountName", Kind.STR),
            optional("storageAccountKey", Kind.STR),
            optional("containerName", Kind.STR),
            optional("nfsServer", Kind.STR),
            optional("exportedDirectory", Kind.STR));

    static final Schema LOCAL = trainingService("LocalConfig", "local",
            optional("useActiveGpu", Kind.BOOL),
            withDefault("maxTrialNumberPerGpu", Kind.INT, 1L),
            optional("gpuIndices", Kind.GPU_INDICES),
            withDefault("reuseMode", Kind.BOOL, false));

    static final Schema REMOTE_MACHINE = schema("RemoteMachineConfig",
            required("host", Kind.STR),
            withDefault("port", Kind.INT, 22L),
            required("user", Kind.STR),
            optional("password", Kind.STR),
            nullableWithDefault("sshKeyFile", Kind.PATH, "~/.ssh/id_rsa"),
            optional("sshPassphrase", Kind.STR),
            withDefault("useActiveGpu", Kind.BOOL, false),
            withDefault("maxTrialNumberPerGpu", Kind.INT, 1L),
            optional("gpuIndices", Kind.GPU_INDICES),
            optional("pythonPath", Kind.STR));

    static final Schema REMOTE = trainingService("RemoteConfig", "remote",
            configList("machineList", REMOTE_MACHINE),
            withDefault("reuseMode", Kind.BOOL, false));

    static final Schema OPENPAI = trainingService("OpenpaiConfig", "openpai",
            required("host", Kind.STR),
            required("username", Kind.STR),
            required("token", Kind.STR),
            required("trialCpuNumber", Kind.INT),
            required("trialMemorySize", Kind.MEMORY),
            required("storageConfigName", Kind.STR),
            withDefault("dockerImage", Kind.STR, "msranni/nni:latest"),
            requiredNullable("virtualCluster", Kind.STR),
            required("localStorageMountPoint", Kind.PATH),
            required("containerStorageMountPoint", Kind.STR),
            withDefault("reuseMode", Kind.BOOL, true),
            optional("openpaiConfig", Kind.DICT),
            optional("openpaiConfigFile", Kind.PATH));

    static final Schema AML = trainingService("AmlConfig", "aml",
            required("subscriptionId", Kind.STR),
            required("resourceGroup", Kind.STR),
            required("workspaceName", Kind.STR),
            required("computeTarget", Kind.STR),
            withDefault("dockerImage", Kind.STR, "msranni/nni:latest"),
            withDefault("maxTrialNumberPerGpu", Kind.INT, 1L));

    static final Schema DLC = trainingService("DlcConfig", "dlc",
            withDefault("type", Kind.STR, "Worker"),
            required("image", Kind.STR),
            withDefault("jobType", Kind.STR, "TFJob"),
            required("podCount", Kind.INT),
            required("ecsSpec", Kind.STR),
            required("region", Kind.STR),
            required("workspaceId", Kind.STR),
            required("nasDataSourceId", Kind.STR),
            optional("ossDataSourceId", Kind.STR),
            required("accessKeyId", Kind.STR),
            required("accessKeySecret", Kind.STR),
            required("localStorageMountPoint", Kind.STR),
            required("containerStorageMountPoint", Kind.STR));

    /** {@code K8sStorageConfig} (the base class, which is what NNI ends up with for a mapping). */
    static final Schema K8S_STORAGE = schema("K8sStorageConfig",
            required("storageType", Kind.STR),
            optional("azureAccount", Kind.STR),
            optional("azureShare", Kind.STR),
            optional("keyVaultName", Kind.STR),
            optional("keyVaultKey", Kind.STR),
            optional("server", Kind.STR),
            optional("path", Kind.STR));

    static final Schema KUBEFLOW_ROLE = schema("KubeflowRoleConfig",
            required("replicas", Kind.INT),
            required("command", Kind.STR),
            nullableWithDefault("gpuNumber", Kind.INT, 0L),
            required("cpuNumber", Kind.INT),
            required("memorySize", Kind.MEMORY),
            withDefault("dockerImage", Kind.STR, "msranni/nni:latest"),
            required("codeDirectory", Kind.STR));

    static final Schema KUBEFLOW = trainingService("KubeflowConfig", "kubeflow",
            required("operator", Kind.STR),
            required("apiVersion", Kind.STR),
            config("storage", K8S_STORAGE, false),
            config("worker", KUBEFLOW_ROLE, true),
            config("ps", KUBEFLOW_ROLE, true),
            config("master", KUBEFLOW_ROLE, true),
            nullableWithDefault("reuseMode", Kind.BOOL, true),
            withDefault("namespace", Kind.STR, "default"));

    static final Schema FC_COMPLETION = schema("FrameworkAttemptCompletionPolicy",
            required("minFailedTaskCount", Kind.INT),
            required("minSucceedTaskCount", Kind.INT));

    static final Schema FC_ROLE = schema("FrameworkControllerRoleConfig",
            required("name", Kind.STR),
            withDefault("dockerImage", Kind.STR, "msranni/nni:latest"),
            required("taskNumber", Kind.INT),
            required("command", Kind.STR),
            required("gpuNumber", Kind.INT),
            required("cpuNumber", Kind.INT),
            required("memorySize", Kind.MEMORY),
            config("frameworkAttemptCompletionPolicy", FC_COMPLETION, false));

    static final Schema FRAMEWORKCONTROLLER = trainingService("FrameworkControllerConfig", "frameworkcontroller",
            config("storage", K8S_STORAGE, false),
            requiredNullable("serviceAccountName", Kind.STR),
            configList("taskRoles", FC_ROLE),
            nullableWithDefault("reuseMode", Kind.BOOL, true),
            withDefault("namespace", Kind.STR, "default"));

    /**
     * Tunekit's own, not NNI's (NNI has no Slurm training service; {@code tunekit nni create} refuses it,
     * {@code tunekit run} runs it): each trial one Slurm job. {@code sbatchOptions} go to {@code sbatch} as
     * given, after {@code partition} and {@code account}; {@code sharedDirectory} is a folder the nodes
     * share with this machine (default: the experiment's folder); {@code pollInterval} is how often Slurm
     * is asked about the jobs.
     */
    static final Schema SLURM = trainingService("SlurmConfig", "slurm",
            optional("partition", Kind.STR),
            optional("account", Kind.STR),
            withDefault("sbatchOptions", Kind.STR_LIST, List.of()),
            optional("sharedDirectory", Kind.PATH),
            withDefault("pollInterval", Kind.TIME, 1L));

    /** The training services by {@code platform}: NNI's, and Tunekit's own {@code slurm}. */
    static final Map<String, Schema> TRAINING_SERVICES = Map.of(
            "local", LOCAL, "remote", REMOTE, "openpai", OPENPAI, "aml", AML, "dlc", DLC,
            "kubeflow", KUBEFLOW, "frameworkcontroller", FRAMEWORKCONTROLLER, "slurm", SLURM);

    /** The platforms that are Tunekit's own: NNI's manager has no training service for them. */
    static final java.util.Set<String> TUNEKIT_ONLY = java.util.Set.of("slurm");

    /** {@code ExperimentConfig}. */
    static final Schema EXPERIMENT = schema("ExperimentConfig",
            optional("experimentName", Kind.STR),
            literal("experimentType", "hpo"),
            optional("searchSpaceFile", Kind.PATH),
            optional("searchSpace", Kind.ANY),
            optional("trialCommand", Kind.STR),
            withDefault("trialCodeDirectory", Kind.PATH, "."),
            required("trialConcurrency", Kind.INT),
            optional("trialGpuNumber", Kind.GPU_NUMBER), // see SHORTCUT_FIELDS
            optional("maxExperimentDuration", Kind.TIME),
            optional("maxTrialNumber", Kind.INT),
            optional("maxTrialDuration", Kind.TIME),
            optional("nniManagerIp", Kind.STR),
            withDefault("useAnnotation", Kind.BOOL, false),
            withDefault("debug", Kind.BOOL, false),
            optional("logLevel", Kind.STR),
            withDefault("experimentWorkingDirectory", Kind.PATH, "~/nni-experiments"),
            optional("tunerGpuIndices", Kind.GPU_INDICES),
            config("tuner", ALGORITHM, true),
            config("assessor", ALGORITHM, true),
            config("advisor", ALGORITHM, true),
            new Field("trainingService", Kind.TRAINING_SERVICE, false, MISSING, null, List.of()),
            config("sharedStorage", SHARED_STORAGE, true));
}
