/** {@code tunekit-bench bench-runner}: what the local runner itself costs per trial. */
package org.tunekit.bench.runner;
