package org.tunekit.dispatcher;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Hands out parameter ids from one counter. With a {@link CheckpointStore} it records, before an id
 * goes out, a bound that no handed-out id reaches (reserving a block of ids at a time, so that one
 * small write covers many trials); a resumed dispatcher starts at that bound and never reuses an id,
 * whatever instant the previous one was killed at.
 */
final class ParameterIds {
    static final int BLOCK = 64;

    private final CheckpointStore store;
    private long next;
    private long reserved;

    /** @param store where the bound is recorded, or {@code null} for none (ids start at 0 on every run) */
    ParameterIds(CheckpointStore store) {
        this.store = store;
    }

    /** Continues after a previous run: starts at the bound it recorded. */
    synchronized void resume() throws IOException {
        if (store != null) {
            next = Math.max(next, store.reservedIds());
        }
    }

    /** The next id, recorded as used before it is returned. */
    synchronized long take() {
        if (store != null && next >= reserved) {
            reserved = next + BLOCK;
            try {
                store.reserveIds(reserved);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot record the parameter ids in use in the checkpoint directory", e);
            }
        }
        return next++;
    }

    /** Makes sure later ids are above {@code used} (an id from an earlier run, in {@code AD}). */
    synchronized void after(long used) {
        next = Math.max(next, used + 1);
    }

    /** On a clean stop: records the exact next id, so that a resume leaves no gap. */
    synchronized void close() throws IOException {
        if (store != null) {
            store.reserveIds(next);
            reserved = next;
        }
    }
}
