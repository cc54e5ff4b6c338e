/**
 * A small built-in experiment manager: it launches the real dispatcher process, speaks the wire
 * protocol to it over a pipe, and evaluates a built-in objective as the simulated trials. It backs
 * {@code tunekit demo}, which shows a whole experiment working with no external manager. Its
 * objective functions are also the quality benchmark's suite.
 */
package org.tunekit.bench.demo;
