package org.tunekit.dispatcher.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Points SLF4J's simple logger at {@code $NNI_LOG_DIRECTORY/dispatcher.log}, or at stderr, never at
 * stdout (which may be the wire), at the level {@code NNI_LOG_LEVEL} names. Must run before the
 * first logger is created.
 */
public final class LoggingSetup {
    private LoggingSetup() {}

    /**
     * Sets the simple logger's properties that are not set already (a {@code -D} option wins), from
     * {@code env}; {@code defaultLevel} applies when {@code NNI_LOG_LEVEL} is unset or unknown.
     */
    public static void configure(Map<String, String> env, String defaultLevel) {
        String dir = env.get("NNI_LOG_DIRECTORY");
        String target = "System.err";
        if (dir != null && !dir.isBlank()) {
            try {
                Path d = Path.of(dir);
                Files.createDirectories(d);
                target = d.resolve("dispatcher.log").toString();
            } catch (Exception e) {
                System.err.println("tunekit: cannot log to " + dir + " (" + e + "); logging to stderr");
            }
        }
        setIfAbsent("org.slf4j.simpleLogger.logFile", target);
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", level(env.get("NNI_LOG_LEVEL"), defaultLevel));
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd HH:mm:ss.SSS");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
        setIfAbsent("org.slf4j.simpleLogger.levelInBrackets", "true");
        // the JDK's own loggers (the HTTP client, TLS) reach SLF4J through System.Logger; at debug they
        // would bury the dispatcher's lines, so they stay at info whatever NNI_LOG_LEVEL says
        for (String jdk : new String[] {"jdk", "sun", "javax", "java"}) {
            setIfAbsent("org.slf4j.simpleLogger.log." + jdk, "info");
        }
        // the SSH library of platform: remote tells of every session at info; its warnings are what matter
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.sshd", "warn");
    }

    static String level(String nniLevel, String fallback) {
        if (nniLevel == null || nniLevel.isBlank()) {
            return fallback;
        }
        return switch (nniLevel.trim().toLowerCase(Locale.ROOT)) {
            case "trace" -> "trace";
            case "debug" -> "debug";
            case "info" -> "info";
            case "warning", "warn" -> "warn";
            case "error", "fatal", "critical" -> "error";
            default -> fallback;
        };
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
