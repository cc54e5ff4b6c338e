package org.tunekit.dispatcher.protocol;

/** The two-letter commands of NNI's tuner protocol. */
public enum CommandType {
    /** Initialize: the search space. Manager to dispatcher. */
    INITIALIZE("IN", true),
    /** RequestTrialJobs: how many new trials. */
    REQUEST_TRIAL_JOBS("GE", true),
    /** ReportMetricData: a final or intermediate metric, or a multi-phase request. */
    REPORT_METRIC_DATA("ME", true),
    /** UpdateSearchSpace. */
    UPDATE_SEARCH_SPACE("SS", true),
    /** ImportData: results from elsewhere. */
    IMPORT_DATA("FD", true),
    /** AddCustomizedTrialJob: parameter records of user-added or earlier trials. */
    ADD_CUSTOMIZED_TRIAL_JOB("AD", true),
    /** TrialEnd. */
    TRIAL_END("EN", true),
    /** Terminate. */
    TERMINATE("TE", true),
    /** Ping; no reply. */
    PING("PI", true),
    /** Initialized: the answer to IN. Dispatcher to manager. */
    INITIALIZED("ID", false),
    /** NewTrialJob: a parameter record. */
    NEW_TRIAL_JOB("TR", false),
    /** SendTrialJobParameter: parameters for a multi-phase trial. */
    SEND_TRIAL_JOB_PARAMETER("SP", false),
    /** NoMoreTrialJobs. */
    NO_MORE_TRIAL_JOBS("NO", false),
    /** KillTrialJob: stop a trial early. */
    KILL_TRIAL_JOB("KI", false),
    /** Error: the experiment fails with this text. */
    ERROR("ER", false);

    private static final CommandType[] BY_CODE = new CommandType[26 * 26];

    static {
        for (CommandType t : values()) {
            BY_CODE[(t.code.charAt(0) - 'A') * 26 + (t.code.charAt(1) - 'A')] = t;
        }
    }

    private final String code;
    private final boolean toDispatcher;

    CommandType(String code, boolean toDispatcher) {
        this.code = code;
        this.toDispatcher = toDispatcher;
    }

    /** The two-letter code. */
    public String code() {
        return code;
    }

    /** True for commands the manager sends to the dispatcher. */
    public boolean toDispatcher() {
        return toDispatcher;
    }

    /** The command with this code, or {@code null}. */
    public static CommandType ofCode(String code) {
        if (code == null || code.length() != 2) {
            return null;
        }
        return ofCode((byte) code.charAt(0), (byte) code.charAt(1));
    }

    /** The command with these two code bytes, or {@code null}. */
    public static CommandType ofCode(byte b0, byte b1) {
        if (b0 < 'A' || b0 > 'Z' || b1 < 'A' || b1 > 'Z') {
            return null;
        }
        return BY_CODE[(b0 - 'A') * 26 + (b1 - 'A')];
    }
}
