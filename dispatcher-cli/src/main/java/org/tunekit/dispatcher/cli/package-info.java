/**
 * The dispatcher on the command line: the {@code dispatch} and {@code list} sub-commands of
 * {@code tunekit}, and the logging set-up ({@link org.tunekit.dispatcher.cli.LoggingSetup}) that every
 * command running a dispatcher shares ({@code run}, {@code demo} and the benchmarks as well). The
 * dispatcher library itself has no command line and no logging binding; the root command is in the
 * command-line module.
 */
package org.tunekit.dispatcher.cli;
