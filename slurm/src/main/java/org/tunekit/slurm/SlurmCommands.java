package org.tunekit.slurm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's commands, found in the folders of a {@code PATH}-like list (so that tests can put
 * stand-ins first). Each run waits for the command's end, at most {@link #TIMEOUT_SECONDS}.
 */
final class SlurmCommands {
    static final List<String> NEEDED = List.of("sbatch", "squeue", "sacct", "scancel", "sinfo");
    static final int TIMEOUT_SECONDS = 60;

    private final String path;

    /** What a command did. */
    record Result(int status, String out, String err) {
        boolean ok() {
            return status == 0;
        }
    }

    /** @param path where to look for the commands, written as {@code PATH} is */
    SlurmCommands(String path) {
        this.path = path;
    }

    String path() {
        return path;
    }

    /** The command's file, or {@code null} when none of the folders has it. */
    Path find(String name) {
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * Runs {@code command} (its first word a Slurm command's name) and returns what it did.
     *
     * @throws IOException when the command is not found, cannot start, or does not end in time (naming it)
     */
    Result run(List<String> command) throws IOException {
        Path exe = find(command.get(0));
        if (exe == null) {
            throw new IOException(command.get(0) + " is not on the PATH (" + path + ")");
        }
        List<String> args = new ArrayList<>(command);
        args.set(0, exe.toString());
        ProcessBuilder pb = new ProcessBuilder(args).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("PATH", path + File.pathSeparator + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), out.get(), err.get().strip());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0));
        } catch (ExecutionException e) {
            throw new IOException("cannot read what " + command.get(0) + " wrote: " + e.getCause(), e.getCause());
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
