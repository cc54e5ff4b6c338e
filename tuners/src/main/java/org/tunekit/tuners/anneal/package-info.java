/** The {@code Anneal} tuner: sampling around the best results with a neighbourhood that narrows over time. */
package org.tunekit.tuners.anneal;
