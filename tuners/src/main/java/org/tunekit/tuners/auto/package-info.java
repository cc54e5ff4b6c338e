/** {@code Auto}: the recommended default, which runs the built-in algorithm that suits the search space and the trials so far. */
package org.tunekit.tuners.auto;
