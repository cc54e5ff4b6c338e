/** What the built-in assessors share: the line format of their checkpoints and argument helpers. */
package org.tunekit.assessors.support;
