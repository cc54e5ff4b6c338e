package org.tunekit.runner.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.runner.results.Trials.T0;
import static org.tunekit.runner.results.Trials.experiment;
import static org.tunekit.runner.results.Trials.trial;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTest {
    @TempDir
    Path dir;

    private static final String NASTY = "died: \"out of memory\", at step 3\nTraceback:\r\n  line 1";

    private static ExperimentResults sample() {
        TrialRecord failed = new TrialRecord(1, "B,2", 7, Map.of("lr", 0.5, "optimizer",
                Map.of("_name", "sgd", "momentum", 0.9)), TrialStatus.FAILED, null, null, List.of(0.1, Double.NaN),
                T0, T0.plusMillis(1500), 137, NASTY, List.of(0, 2));
        return experiment(true, List.of(
                trial(0, TrialStatus.SUCCEEDED, 0.25, Map.of("lr", 1e-5, "optimizer", Map.of("_name", "adam",
                        "lr", 0.01), "layers", List.of(64L, 32L), "status", "x"), List.of(0.1, 0.2, 0.25), 90),
                failed,
                trial(2, TrialStatus.EARLY_STOPPED, Double.NaN, Map.of("lr", 2.0, "optimizer", "none"),
                        List.of(), 1)));
    }

    @Test
    void trialsHaveOneColumnPerFlattenedParameterAndQuoteWhatNeedsIt() throws IOException {
        ResultsOutput.writeCsv(sample(), dir);
        String text = Files.readString(dir.resolve("trials.csv"), StandardCharsets.UTF_8);
        assertThat(text).startsWith("sequence,trial_job_id,parameter_id,status,final_value,started,ended,duration_s,"
                + "exit_code,message,gpus,layers,lr,optimizer,optimizer.lr,optimizer.momentum,param.status\r\n");
        assertThat(text).contains("\r\n0,T0000,0,SUCCEEDED,0.25,2026-03-01T10:00:00Z,2026-03-01T10:01:30Z,90.000,0,,,"
                + "\"[64,32]\",1.0E-5,adam,0.01,,x\r\n");
        List<List<String>> rows = parse(text);
        assertThat(rows).hasSize(4).allSatisfy(row -> assertThat(row).hasSize(17));
        assertThat(rows.get(2)).containsExactly("1", "B,2", "7", "FAILED", "", "2026-03-01T10:00:00Z",
                "2026-03-01T10:00:01.500Z", "1.500", "137", NASTY, "0,2", "", "0.5", "sgd", "", "0.9", "");
        assertThat(rows.get(3).subList(3, 5)).containsExactly("EARLY_STOPPED", "NaN");
    }

    @Test
    void intermediateHasOneRowPerResult() throws IOException {
        ResultsOutput.writeCsv(sample(), dir);
        assertThat(Files.readString(dir.resolve("intermediate.csv"))).isEqualTo(
                "trial_job_id,step,value\r\nT0000,1,0.1\r\nT0000,2,0.2\r\nT0000,3,0.25\r\n\"B,2\",1,0.1\r\n\"B,2\",2,NaN\r\n");
    }

    @Test
    void replacesFilesWholeAndLeavesNoTemporaryFile() throws IOException {
        Path sub = dir.resolve("a/b");
        ResultsOutput.writeCsv(sample(), sub);
        ResultsOutput.writeCsv(experiment(false, List.of()), sub);
        try (Stream<Path> files = Files.list(sub)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("trials.csv",
                    "intermediate.csv");
        }
        assertThat(Files.readString(sub.resolve("trials.csv"))).isEqualTo("sequence,trial_job_id,parameter_id,"
                + "status,final_value,started,ended,duration_s,exit_code,message,gpus\r\n");
    }

    @Test
    void aFailedWriteLeavesTheOldFile() throws IOException {
        Path target = dir.resolve("f.txt");
        Files.writeString(target, "old");
        try {
            AtomicFiles.write(target, out -> {
                out.write("half");
                throw new IOException("disk full");
            });
        } catch (IOException expected) {
            assertThat(expected).hasMessage("disk full");
        }
        assertThat(Files.readString(target)).isEqualTo("old");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(target);
        }
    }

    /** An RFC 4180 reader: what a spreadsheet or pandas would see. */
    static List<List<String>> parse(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                assertThat(field).as("a quote only opens a field").isEmpty();
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                i++;
            } else {
                assertThat(c).as("a bare line break").isNotIn('\r', '\n');
                field.append(c);
            }
        }
        assertThat(quoted).isFalse();
        assertThat(row).isEmpty();
        return rows;
    }
}
