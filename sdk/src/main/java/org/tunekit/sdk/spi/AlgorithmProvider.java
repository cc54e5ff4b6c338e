package org.tunekit.sdk.spi;

import java.util.List;

/** What every provider has: the name an experiment config uses, and a line of description. */
public interface AlgorithmProvider {

    /** The name experiment configs use (matched ignoring case), such as {@code "TPE"}. */
    String name();

    /** Other accepted names. */
    default List<String> aliases() {
        return List.of();
    }

    /** One line saying what the algorithm is. */
    default String description() {
        return "";
    }
}
