package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path of a new plugin author, end to end: the SDK, BOM and archetype as they are installed into a
 * local Maven repository, {@code archetype:generate}, a build of the generated project and of the three
 * example plugin projects (each project's own tests with the SDK's test kits), {@code tunekit list} on
 * their jars and {@code tunekit run} of a real experiment with each plugin.
 *
 * <p>Maven runs offline on a local repository of its own in a temporary folder: this build's
 * {@code tunekit-*} artifacts are laid out there as {@code install} lays them out, and everything else
 * (plugins, JUnit) is read from the build's local repository as a read-only tail
 * ({@code maven.repo.local.tail}), so the user's repository is neither needed online nor written.
 */
class PluginKitIT {
    private static final Path HOME = TunekitProcess.HOME;
    private static final String VERSION = System.getProperty("tunekit.version", "0.1.0-SNAPSHOT");
    private static final String ARCHETYPE_PLUGIN = "org.apache.maven.plugins:maven-archetype-plugin:"
            + System.getProperty("archetype.plugin.version", "3.3.1") + ":generate";
    private static final List<String> EXAMPLES = List.of("plugin-tuner", "plugin-assessor", "plugin-advisor");

    @TempDir
    Path tmp;

    /** A finished command: exit status and everything it printed (stdout and stderr together). */
    record Result(int status, String output) {}

    @Test
    void fromArchetypeAndExamplesToRunningExperiments() throws Exception {
        Path repo = tmp.resolve("repo");
        Path work = Files.createDirectories(tmp.resolve("work"));
        installTunekitArtifacts(repo);

        // 1. The archetype, as the README gives it.
        Result generate = maven(repo, work, ARCHETYPE_PLUGIN,
                "-DarchetypeGroupId=org.tunekit", "-DarchetypeArtifactId=tunekit-plugin-archetype", "-DarchetypeVersion=" + VERSION,
                "-DgroupId=com.example", "-DartifactId=my-tuner", "-Dpackage=com.example.tuning", "-DinteractiveMode=false");
        assertThat(generate.status()).as(generate.output()).isZero();
        Path generated = work.resolve("my-tuner");
        assertThat(generated.resolve("src/main/java/com/example/tuning/LocalSearchTuner.java")).isRegularFile();
        assertThat(generated.resolve("src/main/resources/META-INF/services/org.tunekit.sdk.spi.TunerProvider"))
                .content().contains("com.example.tuning.LocalSearchTunerProvider");
        assertThat(generated.resolve("pom.xml")).content()
                .contains("<artifactId>tunekit-bom</artifactId>", "<artifactId>tunekit-sdk</artifactId>", "<tunekit.version>" + VERSION + "<");

        // 2. The examples beside it (with the shell trial their experiments use), and one offline build
        //    of the four projects: each compiles against the SDK from the BOM and passes its own tests.
        for (String example : EXAMPLES) {
            copyProject(HOME.resolve("examples").resolve(example), work.resolve(example));
        }
        copyProject(HOME.resolve("examples/shell-trial"), work.resolve("shell-trial"));
        Files.writeString(work.resolve("pom.xml"), aggregator(List.of("my-tuner", "plugin-tuner", "plugin-assessor", "plugin-advisor")));
        Result build = maven(repo, work, "package");
        assertThat(build.status()).as(build.output()).isZero();
        assertThat(build.output()).contains("BUILD SUCCESS").doesNotContain("Tests run: 0,");
        for (String project : List.of("my-tuner", "plugin-tuner", "plugin-assessor", "plugin-advisor")) {
            assertThat(testsRun(work.resolve(project))).as(project + " ran its tests").isPositive();
        }
        assertThat(generated.resolve("target/my-tuner-1.0-SNAPSHOT.jar")).isRegularFile();

        // 3. tunekit finds the plugins in their jars' folders.
        Result list = tunekit("list", "--plugins", generated.resolve("target").toString());
        assertThat(list.status()).as(list.output()).isZero();
        assertThat(list.output())
                .containsPattern("(?m)^tuner\\s+LocalSearch\\s+\\S*my-tuner-1.0-SNAPSHOT.jar")
                .containsPattern("(?m)^assessor\\s+BestCurve\\s+\\S*my-tuner-1.0-SNAPSHOT.jar");
        assertListed("plugin-tuner", "tuner", "CoordinateSearch", work);
        assertListed("plugin-assessor", "assessor", "NoImprovement", work);
        assertListed("plugin-advisor", "advisor", "Halving", work);

        // 4. Real experiments (shell trials over HTTP with curl) with each plugin.
        assertRuns(generated.resolve("experiment.yml"), generated.resolve("target"), 12);
        assertRuns(work.resolve("plugin-tuner/experiment.yml"), work.resolve("plugin-tuner/target"), 12);
        String assessed = assertRuns(work.resolve("plugin-assessor/experiment.yml"), work.resolve("plugin-assessor/target"), 10);
        assertThat(assessed).contains("early stopped");
        String advised = assertRuns(work.resolve("plugin-advisor/experiment.yml"), work.resolve("plugin-advisor/target"), 10);
        assertThat(advised).contains("TRIAL_BUDGET");
    }

    private void assertListed(String project, String kind, String name, Path work) throws Exception {
        Result list = tunekit("list", "--plugins", work.resolve(project).resolve("target").toString());
        assertThat(list.status()).as(list.output()).isZero();
        assertThat(list.output()).containsPattern("(?m)^" + kind + "\\s+" + name + "\\s+\\S*" + project + "-1.0-SNAPSHOT.jar");
    }

    /** Runs the experiment to its end and returns what it printed. */
    private String assertRuns(Path config, Path plugins, int trials) throws Exception {
        Result run = tunekit("run", config.toString(), "--plugins", plugins.toString());
        assertThat(run.status()).as(run.output()).isZero();
        assertThat(run.output()).as(run.output())
                .containsPattern("DONE: " + trials + " trials: [1-9][0-9]* succeeded")
                .doesNotContain("FAILED");
        return run.output();
    }

    /** Lays out this build's SDK, BOM, parent and archetype in {@code repo} as {@code mvn install} would. */
    private static void installTunekitArtifacts(Path repo) throws IOException {
        install(repo, "tunekit-parent", HOME.resolve("pom.xml"), null);
        install(repo, "tunekit-sdk", HOME.resolve("sdk/pom.xml"), HOME.resolve("sdk/target/tunekit-sdk-" + VERSION + ".jar"));
        install(repo, "tunekit-bom", HOME.resolve("bom/pom.xml"), null);
        install(repo, "tunekit-plugin-archetype", HOME.resolve("archetype/pom.xml"),
                HOME.resolve("archetype/target/tunekit-plugin-archetype-" + VERSION + ".jar"));
    }

    private static void install(Path repo, String artifactId, Path pom, Path jar) throws IOException {
        Path dir = Files.createDirectories(repo.resolve("org/tunekit").resolve(artifactId).resolve(VERSION));
        Files.copy(pom, dir.resolve(artifactId + "-" + VERSION + ".pom"));
        if (jar != null) {
            assertThat(jar).as("built by the reactor before this test").isRegularFile();
            Files.copy(jar, dir.resolve(artifactId + "-" + VERSION + ".jar"));
        }
    }

    /** Copies a project's sources, leaving out anything built in the checkout. */
    private static void copyProject(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.filter(p -> !from.relativize(p).startsWith("target")).forEach(p -> {
                try {
                    Path dest = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static String aggregator(List<String> modules) {
        StringBuilder sb = new StringBuilder("""
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>org.tunekit.it</groupId>
                  <artifactId>plugin-projects</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <modules>
                """);
        modules.forEach(m -> sb.append("    <module>").append(m).append("</module>\n"));
        return sb.append("  </modules>\n</project>\n").toString();
    }

    private static int testsRun(Path project) throws IOException {
        int total = 0;
        try (Stream<Path> reports = Files.list(project.resolve("target/surefire-reports"))) {
            for (Path r : reports.filter(p -> p.toString().endsWith(".txt")).toList()) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("Tests run: (\\d+), Failures: 0, Errors: 0").matcher(Files.readString(r));
                while (m.find()) {
                    total += Integer.parseInt(m.group(1));
                }
            }
        }
        return total;
    }

    /** The Maven that runs this build (or the wrapper), offline, on the test's repository with the build's as tail. */
    private Result maven(Path repo, Path dir, String... args) throws Exception {
        String mavenHome = System.getProperty("maven.home", "");
        Path mvn = Path.of(mavenHome, "bin", "mvn");
        List<String> cmd = new ArrayList<>();
        cmd.add(!mavenHome.isEmpty() && Files.isExecutable(mvn) ? mvn.toString() : HOME.resolve("mvnw").toString());
        cmd.addAll(List.of("-B", "-ntp", "-o", "-Dmaven.repo.local=" + repo,
                "-Dmaven.repo.local.tail=" + System.getProperty("maven.repo.local.tail",
                        Path.of(System.getProperty("user.home"), ".m2", "repository").toString())));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("MAVEN_OPTS");
        pb.environment().remove("MAVEN_ARGS");
        pb.environment().remove("MAVEN_PROJECTBASEDIR");
        return run(pb, 5);
    }

    private Result tunekit(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(HOME.resolve("tunekit").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(HOME.toFile());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TUNEKIT_EXPERIMENTS_DIR", tmp.resolve("experiments").toString());
        pb.environment().remove("TUNEKIT_PLUGIN_PATH");
        return run(pb, 3);
    }

    private Result run(ProcessBuilder pb, int minutes) throws Exception {
        Path log = Files.createTempFile(tmp, "out", ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(pb.command() + " did not finish in " + minutes + " min:\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
