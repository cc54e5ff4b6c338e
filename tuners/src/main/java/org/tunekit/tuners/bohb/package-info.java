/** The {@code BOHB} advisor: Hyperband's brackets with a kernel-density model choosing configurations. */
package org.tunekit.tuners.bohb;
