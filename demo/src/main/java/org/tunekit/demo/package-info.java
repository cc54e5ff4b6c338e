/**
 * {@code tunekit demo}: a whole experiment with no external manager. The manager's loop of
 * {@code tunekit run} drives the real dispatcher in process over simulated trials, whose learning
 * curves converge to the value of a built-in test function. The test functions
 * ({@link org.tunekit.demo.TestFunctions}, each a {@link org.tunekit.demo.TestFunction}) are also the classic five of the quality benchmark, whose suite, in the bench module, is built on
 * them; this module is part of the product and knows nothing of the benchmarks.
 */
package org.tunekit.demo;
