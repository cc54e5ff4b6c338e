/** Small statistics that plugins need to judge trials, such as rank correlation. */
package org.tunekit.sdk.stats;
