/**
 * The dispatcher's sub-commands of the {@code tunekit} command line: {@code dispatch} and {@code list},
 * and the logging and stdout set-up they share. The root command is in the command-line module.
 */
package org.tunekit.dispatcher.cli;
