/**
 * A small built-in experiment manager: it launches the real dispatcher process, speaks the wire
 * protocol to it over a pipe, and evaluates a built-in objective as the trials. It backs
 * {@code tunekit run}, which shows a whole experiment working with no external manager.
 */
package org.tunekit.bench.demo;
