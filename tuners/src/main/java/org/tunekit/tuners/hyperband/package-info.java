/**
 * The {@code Hyperband} advisor, and {@link org.tunekit.tuners.hyperband.BracketAdvisor}, the bracket
 * loop it shares with {@code BOHB}.
 */
package org.tunekit.tuners.hyperband;
