/** The {@code tunekit} command line: {@code dispatch}, {@code list}, {@code run}, and NNI's interpreter calls. */
package org.tunekit.dispatcher.cli;
