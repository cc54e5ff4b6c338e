package org.tunekit.dispatcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.Parameters;

/**
 * Plugins' checkpoints: saving one as a generation of a
 * {@link CheckpointStore} and loading it, and the record of results a tuner's checkpoint holds.
 *
 * <p>A plugin keeps a checkpoint ({@code org.tunekit.sdk.internal.OwnCheckpoint}) when its class implements
 * {@code loadCheckpoint(Path)} rather than inheriting the SPI's empty default; only then does the
 * dispatcher save and load its state. Every other plugin is rebuilt on resume from what the manager
 * replays (a tuner from the earlier results it imports), so it needs no file format of its own.
 */
final class Checkpoints {
    private static final Logger LOG = LoggerFactory.getLogger(MsgDispatcher.class);

    private Checkpoints() {}

    /** The record saved with a tuner's checkpoint: the parameters whose results it has been given. */
    static String givenRecord(Collection<Parameters> given) {
        List<Object> results = new ArrayList<>(given.size());
        given.forEach(p -> results.add(p.values()));
        return JsonCodec.write(Map.of("given", results));
    }


    /** The parameters recorded with a tuner checkpoint as already given to it. */
    static List<Parameters> givenResults(String sidecar) {
        if (sidecar == null) {
            return List.of();
        }
        try {
            Object m = JsonCodec.parse(sidecar, "the tuner checkpoint's record");
            List<Parameters> out = new ArrayList<>();
            if (m instanceof Map<?, ?> map && map.get("given") instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof Map<?, ?> pm) {
                        @SuppressWarnings("unchecked")
                        Map<String, ?> values = (Map<String, ?>) pm;
                        out.add(Parameters.of(values));
                    }
                }
            }
            return out;
        } catch (ProtocolException e) {
            throw new PluginException("the tuner checkpoint's record is damaged: " + e.getMessage(), e);
        }
    }

    /** A plugin's saveCheckpoint or loadCheckpoint. */
    interface CheckpointCall {
        void call(Path dir) throws Exception;
    }

    /** Has a plugin load its checkpoint from {@code dir}, when there is one. */
    static void load(Path dir, String what, CheckpointCall call) {
        if (dir == null || !Files.isDirectory(dir)) {
            LOG.info("no {} checkpoint in {}", what, dir);
            return;
        }
        try {
            call.call(dir);
            LOG.info("{} checkpoint loaded from {}", what, dir);
        } catch (Exception e) {
            throw new PluginException("the " + what + " failed in loadCheckpoint(" + dir + ")", e);
        }
    }

    /** Saves a plugin's checkpoint as a new generation in {@code store} (see {@link CheckpointStore}). */
    static void save(CheckpointStore store, String what, CheckpointCall call, String sidecar) {
        try {
            store.save(what, dir -> {
                try {
                    call.call(dir);
                } catch (Exception e) {
                    throw new PluginException("the " + what + " failed in saveCheckpoint(" + dir + ")", e);
                }
            }, sidecar);
            LOG.debug("{} checkpoint saved in {}", what, store);
        } catch (PluginException e) {
            throw e;
        } catch (Exception e) {
            throw new PluginException("cannot write the " + what + "'s checkpoint: " + e, e);
        }
    }
}
