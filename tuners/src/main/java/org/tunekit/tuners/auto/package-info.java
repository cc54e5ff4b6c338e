/** {@code Auto}: the recommended tuner, a stable name for the built-in algorithm that measured best. */
package org.tunekit.tuners.auto;
