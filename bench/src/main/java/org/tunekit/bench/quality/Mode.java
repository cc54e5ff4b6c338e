package org.tunekit.bench.quality;

import java.util.Locale;

/** How a run asks its tuner for parameter sets. */
enum Mode {
    /** One parameter set per request; its result is reported before the next request. */
    SEQUENTIAL("sequential", 1),
    /** Eight parameter sets per request; their eight results are reported before the next request. */
    BATCH("batch", 8);

    private final String label;
    private final int batchSize;

    Mode(String label, int batchSize) {
        this.label = label;
        this.batchSize = batchSize;
    }

    /** The name used on the command line and in the outputs. */
    public String label() {
        return label;
    }

    /** How many parameter sets one request asks for. */
    public int batchSize() {
        return batchSize;
    }

    /**
     * The mode called {@code text} (ignoring case).
     *
     * @throws IllegalArgumentException naming the unknown mode and the known ones
     */
    public static Mode parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (Mode m : values()) {
            if (m.label.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + text + "'; known modes: sequential, batch");
    }
}
