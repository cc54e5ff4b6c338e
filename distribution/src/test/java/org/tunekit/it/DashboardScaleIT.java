package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The dashboard over an experiment of 10,000 trials, in a real browser: how soon the trial table shows
 * its first rows, and how smoothly it scrolls from the first trial to the last. The store is a real
 * one ({@code tunekit run} of one trial) with 10,000 trials written into it, then served by the real
 * {@code tunekit view}. It asserts only what the page must do (rows shown, the last row reached, sorting
 * and filtering right); the figures go to {@code -Dui.results=DIR} as {@code dashboard-10k.md}.
 */
class DashboardScaleIT {
    static final int TRIALS = 10_000;
    /** Every this many trials has a curve of {@link #STEPS} intermediate results. */
    static final int CURVE_EVERY = 5;
    static final int STEPS = 20;
    static final int LOADS = 3;
    static final int SCROLL_STEPS = 100;
    static final int SCROLL_PASSES = 3;
    private static final String[] OPTIMIZERS = {"adam", "sgd", "rmsprop"};
    private static final Gson GSON = new Gson();

    @TempDir
    Path tmp;

    /** What was written: how many trials of each kind, the smallest final value, and how many use sgd. */
    record Written(int trials, int metrics, Map<String, Integer> statuses, double smallest, int sgd, String lastJob) {}

    /** One trial's job id: 5 characters, as the runner makes them. */
    static String job(int i) {
        return "T" + String.format(Locale.ROOT, "%4s", Integer.toString(i, 36)).replace(' ', '0');
    }

    /** Replaces the one trial of the experiment in {@code db} with {@link #TRIALS}, in one transaction. */
    static Written fill(Path db) throws Exception {
        Random r = new Random(42);
        Map<String, Integer> statuses = new LinkedHashMap<>();
        double smallest = Double.POSITIVE_INFINITY;
        int sgd = 0;
        int metrics = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            long t0;
            String config;
            try (Statement s = c.createStatement(); ResultSet q = s.executeQuery("SELECT started_ms, config FROM experiment")) {
                q.next();
                t0 = q.getLong(1);
                config = q.getString(2);
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM metrics");
                s.executeUpdate("DELETE FROM trials");
                s.executeUpdate("DELETE FROM events");
                s.executeUpdate("DELETE FROM requests");
            }
            long lastEnd = t0;
            try (PreparedStatement trial = c.prepareStatement("INSERT INTO trials (job_id, sequence, parameter_id, parameter_record, status, started_ms,"
                    + " ended_ms, exit_code, message, final_metric, final_value, file_frames) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                 PreparedStatement metric = c.prepareStatement("INSERT INTO metrics (job_id, parameter_id, type, sequence, value, value_number, time_ms)"
                         + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < TRIALS; i++) {
                    double x = r.nextDouble();
                    double lr = Math.pow(10, -4 + 3 * r.nextDouble());
                    String optimizer = OPTIMIZERS[r.nextInt(OPTIMIZERS.length)];
                    int layers = 1 + r.nextInt(8);
                    double dropout = Math.round(r.nextDouble() * 10) * 5 / 100.0;
                    double l = Math.log10(lr) + 2.5;
                    double value = (x - 0.3) * (x - 0.3) + 0.1 * l * l + (optimizer.equals("sgd") ? 0.2 : optimizer.equals("rmsprop") ? 0.1 : 0)
                            + 0.02 * layers + 0.3 * dropout + 0.02 * r.nextGaussian();
                    int u = r.nextInt(100);
                    String status = u < 90 ? "SUCCEEDED" : u < 94 ? "EARLY_STOPPED" : u < 97 ? "FAILED" : "USER_CANCELED";
                    statuses.merge(status, 1, Integer::sum);
                    if (optimizer.equals("sgd")) {
                        sgd++;
                    }
                    long started = t0 + i * 2_000L;
                    long ended = started + 20_000 + r.nextInt(40_000);
                    lastEnd = Math.max(lastEnd, ended);
                    String job = job(i);
                    int steps = i % CURVE_EVERY != 0 || status.equals("FAILED") ? 0 : status.equals("EARLY_STOPPED") ? 5 + r.nextInt(10)
                            : status.equals("USER_CANCELED") ? r.nextInt(STEPS) : STEPS;
                    double last = value;
                    for (int k = 0; k < steps; k++) {
                        last = value + 1.0 / (k + 1) + 0.01 * r.nextGaussian();
                        metrics += add(metric, job, i, "PERIODICAL", k, last, started + (ended - started) * (k + 1) / (STEPS + 1));
                    }
                    Double fin = status.equals("SUCCEEDED") ? (Double) value : status.equals("EARLY_STOPPED") ? (Double) last : null;
                    if (fin != null) {
                        metrics += add(metric, job, i, "FINAL", 0, fin, ended - 100);
                        smallest = Math.min(smallest, Double.parseDouble(text(fin)));
                    }
                    Map<String, Object> parameters = new LinkedHashMap<>();
                    parameters.put("x", x);
                    parameters.put("lr", lr);
                    parameters.put("optimizer", optimizer);
                    parameters.put("layers", layers);
                    parameters.put("dropout", dropout);
                    Map<String, Object> record = new LinkedHashMap<>();
                    record.put("parameter_id", i);
                    record.put("parameter_source", "algorithm");
                    record.put("parameters", parameters);
                    record.put("parameter_index", 0);
                    trial.setString(1, job);
                    trial.setInt(2, i);
                    trial.setInt(3, i);
                    trial.setString(4, GSON.toJson(record));
                    trial.setString(5, status);
                    trial.setLong(6, started);
                    trial.setLong(7, ended);
                    trial.setObject(8, status.equals("FAILED") ? (Object) 1 : status.equals("USER_CANCELED") ? null : (Object) 0);
                    trial.setString(9, status.equals("FAILED") ? "exit status 1" : status.equals("EARLY_STOPPED") ? "stopped early by the assessor"
                            : status.equals("USER_CANCELED") ? "stopped by request" : null);
                    trial.setString(10, fin == null ? null : text(fin));
                    trial.setObject(11, fin);
                    trial.setInt(12, steps + (fin == null ? 0 : 1));
                    trial.addBatch();
                    if (i % 1000 == 999) {
                        trial.executeBatch();
                        metric.executeBatch();
                    }
                }
                trial.executeBatch();
                metric.executeBatch();
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE experiment SET config = ?, status = 'DONE', ended_ms = ?");
                 PreparedStatement e = c.prepareStatement("INSERT INTO events (time_ms, kind, job_id, text) VALUES (?, ?, NULL, ?)")) {
                p.setString(1, config.replaceFirst("\"maxTrialNumber\": 1\\b", "\"maxTrialNumber\": " + TRIALS));
                p.setLong(2, lastEnd);
                p.executeUpdate();
                e.setLong(1, t0);
                e.setString(2, "start");
                e.setString(3, "experiment started");
                e.executeUpdate();
                e.setLong(1, lastEnd);
                e.setString(2, "end");
                e.setString(3, "DONE");
                e.executeUpdate();
            }
            c.commit();
        }
        return new Written(TRIALS, metrics, statuses, smallest, sgd, job(TRIALS - 1));
    }

    private static String text(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }

    private static int add(PreparedStatement metric, String job, int pid, String type, int seq, double v, long at) throws Exception {
        metric.setString(1, job);
        metric.setInt(2, pid);
        metric.setString(3, type);
        metric.setInt(4, seq);
        metric.setString(5, text(v));
        metric.setDouble(6, Double.parseDouble(text(v)));
        metric.setLong(7, at);
        metric.addBatch();
        return 1;
    }

    /** Marks when the trial table first has rows, and the frame after, in every page the browser opens. */
    private static final String FIRST_ROWS = """
            (() => {
              const o = new MutationObserver(() => {
                if (window.__rows === undefined && document.querySelector('#trial-table tbody tr.row')) {
                  window.__rows = performance.now();
                  o.disconnect();
                  requestAnimationFrame(() => setTimeout(() => { window.__rowsPainted = performance.now(); }, 0));
                }
              });
              o.observe(document, { childList: true, subtree: true });
            })();""";

    @SuppressWarnings("unchecked")
    @Test
    void tenThousandTrialsShowAtOnceAndScrollToTheLast() throws Exception {
        // a measurement (about a minute): behind a flag, as the project's other long benchmarks, to keep the build short
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("ui.scale") || System.getProperty("ui.results") != null,
                "the 10,000-trial measurement runs with -Dui.scale=true or -Dui.results=DIR");
        try (Browser browser = Browser.open()) {
            String loadBefore = loadAverage();
            Path experiments = tmp.resolve("experiments");
            Path config = RunningTunekit.experimentConfig(tmp.resolve("code"), "trial.sh", """
                    experimentName: dashboard-10k
                    searchSpace:
                      x: {_type: uniform, _value: [0, 1]}
                      lr: {_type: loguniform, _value: [0.0001, 0.1]}
                      optimizer: {_type: choice, _value: [adam, sgd, rmsprop]}
                      layers: {_type: randint, _value: [1, 9]}
                      dropout: {_type: quniform, _value: [0, 0.5, 0.05]}
                    trialCommand: STEPS=1 PAUSE=0 sh trial.sh
                    trialCodeDirectory: .
                    trialConcurrency: 1
                    maxTrialNumber: 1
                    tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 5}}
                    trainingService: {platform: local}
                    """);
            String id = RunningTunekit.runToEnd(experiments, tmp.resolve("run-stderr.txt"), config);
            Path folder = experiments.resolve(id);
            long fillStart = System.nanoTime();
            Written w = fill(folder.resolve("experiment.db"));
            long fillMs = (System.nanoTime() - fillStart) / 1_000_000;
            long storeBytes = Files.size(folder.resolve("experiment.db"));

            RunningTunekit view = RunningTunekit.start(experiments, tmp.resolve("view-stderr.txt"), "view", folder.toString(), "--port", "0");
            try {
                String address = view.printed(RunningTunekit.DASHBOARD);
                assertThat(address).endsWith("/#/e/" + id);
                String trials = address + "/trials";
                browser.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", FIRST_ROWS));
                browser.driver.manage().timeouts().scriptTimeout(Duration.ofMinutes(2));

                // the time from the navigation's start to the table's first rows, on a fresh page each time
                List<Map<String, Object>> loads = new ArrayList<>();
                for (int n = 0; n < LOADS; n++) {
                    browser.go("about:blank");
                    browser.go(trials);
                    browser.find(By.cssSelector("#trial-table tr.row"));
                    browser.until("the frame after the first rows", d -> browser.js("return window.__rowsPainted !== undefined"));
                    loads.add((Map<String, Object>) browser.js("""
                            const nav = performance.getEntriesByType('navigation')[0];
                            const res = performance.getEntriesByType('resource');
                            const state = res.find(e => e.name.includes('/state?revision=0'));
                            const charts = res.find(e => e.name.endsWith('/vendor/echarts.min.js'));
                            return { rows: window.__rows, painted: window.__rowsPainted, dcl: nav.domContentLoadedEventEnd,
                                     stateStart: state.startTime, stateEnd: state.responseEnd, stateBytes: state.transferSize, stateBody: state.decodedBodySize,
                                     echarts: charts ? charts.responseEnd : null };"""));
                    browser.until("the table counts every trial", d -> d.findElement(By.id("trial-count")).getText().equals(TRIALS + " of " + TRIALS + " trials"));
                }
                browser.shot("dashboard-11-10k-trials");
                List<Map<String, String>> first = browser.table();
                assertThat(first).as("the first rows, in order").isNotEmpty();
                assertThat(first.get(0).get("job")).isEqualTo(job(0));
                assertThat(browser.driver.findElements(By.cssSelector("#trial-table tr.row")).size()).as("only the rows in sight and a margin are drawn").isLessThan(200);

                // scroll the table's box from the top to the bottom in 100 steps, one a frame, timing each frame; three times,
                // from the top again each time, since one pass on a shared machine says little
                List<Map<String, Object>> passes = new ArrayList<>();
                for (int pass = 0; pass < SCROLL_PASSES; pass++) {
                    browser.js("document.getElementById('trial-table').scrollTop = 0");
                    browser.until("the first trial's row is shown again", d -> !d.findElements(By.cssSelector("tr.row[data-job='" + job(0) + "']")).isEmpty());
                    passes.add((Map<String, Object>) browser.jsAsync("""
                        const done = arguments[arguments.length - 1];
                        const box = document.getElementById('trial-table');
                        const steps = arguments[0];
                        const max = box.scrollHeight - box.clientHeight;
                        const frames = [];
                        // the table's own work at each scroll (its listener, between a capturing one and one added after it),
                        // and the frames over 50 ms as Chrome splits them (scripts, then style and layout)
                        const paints = [], assigns = [];
                        let before = 0;
                        const mark = () => { before = performance.now(); };
                        const took = () => { paints.push(performance.now() - before); };
                        document.addEventListener('scroll', mark, true);
                        box.addEventListener('scroll', took);
                        const long = [];
                        const keep = l => { for (const e of l.getEntries()) long.push({ duration: e.duration,
                            script: e.scripts.reduce((a, x) => a + x.duration, 0),
                            layout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
                            top: e.scripts.length ? e.scripts.reduce((a, x) => (x.duration > a.duration ? x : a)).invoker : '' }); };
                        const po = new PerformanceObserver(keep);
                        try { po.observe({ type: 'long-animation-frame' }); } catch (e) { /* an older browser */ }
                        let last = null, i = 0;
                        function frame(t) {
                          if (last !== null) frames.push(t - last);
                          last = t;
                          if (i > steps) {
                            document.removeEventListener('scroll', mark, true);
                            box.removeEventListener('scroll', took);
                            setTimeout(() => { keep({ getEntries: () => po.takeRecords() }); po.disconnect(); done({ frames, max, top: box.scrollTop, paints, assigns, long }); }, 200);
                            return;
                          }
                          const a = performance.now();
                          box.scrollTop = Math.round(max * i / steps);
                          assigns.push(performance.now() - a);
                          i++;
                          requestAnimationFrame(frame);
                        }
                        requestAnimationFrame(frame);""", SCROLL_STEPS));
                }
                browser.until("the last trial's row is shown at the bottom of the table", d -> Boolean.TRUE.equals(browser.js("""
                        const box = document.getElementById('trial-table');
                        const row = box.querySelector('tr.row[data-job="' + arguments[0] + '"]');
                        if (!row) return false;
                        const b = box.getBoundingClientRect(), r = row.getBoundingClientRect();
                        return r.top >= b.top && r.bottom <= b.bottom + 1;""", w.lastJob())));
                browser.shot("dashboard-12-10k-trials-bottom");

                // sort by value and filter by a parameter: timed from the click or the keystroke to the table redrawn
                double sortMs = ((Number) browser.js("""
                        const th = document.querySelector('th[data-key=value]');
                        const t = performance.now();
                        th.click();
                        return performance.now() - t;""")).doubleValue();
                String smallest = browser.until("the smallest value comes first", d -> {
                    List<Map<String, String>> t = browser.table();
                    return t.isEmpty() || t.get(0).get("value").isEmpty() ? null : t.get(0).get("value");
                });
                assertThat(Double.parseDouble(smallest)).isCloseTo(w.smallest(), org.assertj.core.data.Percentage.withPercentage(0.01));
                double filterMs = ((Number) browser.js("""
                        const f = document.getElementById('trial-filter');
                        const t = performance.now();
                        f.value = 'optimizer=sgd';
                        f.dispatchEvent(new Event('input'));
                        return performance.now() - t;""")).doubleValue();
                browser.until("the filter keeps the trials with sgd", d -> d.findElement(By.id("trial-count")).getText().startsWith(w.sgd() + " of " + TRIALS + " trials"));
                assertThat(browser.table()).allMatch(r -> "sgd".equals(r.get("p:optimizer")));
                browser.js("const f = document.getElementById('trial-filter'); f.value = ''; f.dispatchEvent(new Event('input'));");

                // the charts page over every trial: time to draw (the page's own work), and the server's answers it waits for
                Map<String, Object> charts = (Map<String, Object>) browser.jsAsync("""
                        const done = arguments[arguments.length - 1];
                        const t0 = performance.now();
                        window.addEventListener('hashchange', () => {
                          const t1 = performance.now();
                          requestAnimationFrame(() => setTimeout(() => done({ route: t1 - t0, frame: performance.now() - t0 }), 0));
                        }, { once: true });
                        location.hash = '#/e/' + arguments[0] + '/charts';""", id);
                for (String chart : List.of("chart-value", "chart-intermediate", "chart-parallel", "chart-importance", "chart-durations")) {
                    browser.until(chart + " draws", d -> !d.findElements(By.cssSelector("#" + chart + " canvas")).isEmpty());
                }
                // ECharts draws a chart of many points on more than one canvas: count the charts that have one
                browser.until("a slice per parameter", d -> ((Number) browser.js(
                        "return [...document.querySelectorAll('#slices .chart')].filter(c => c.querySelector('canvas')).length")).intValue() == 5);
                browser.until("the importance of each parameter", Duration.ofMinutes(2), d -> ((Number) browser.js("""
                        const c = echarts.getInstanceByDom(document.getElementById('chart-importance'));
                        const o = c && c.getOption();
                        return o && o.series && o.series[0] ? o.series[0].data.length : 0;""")).intValue() == 5);
                Map<String, Object> answers = (Map<String, Object>) browser.js("""
                        const res = performance.getEntriesByType('resource');
                        const last = part => res.filter(e => e.name.includes(part)).pop();
                        const imp = last('/importance'), inter = last('/intermediate');
                        return { importance: imp ? imp.responseEnd - imp.startTime : null, intermediate: inter ? inter.responseEnd - inter.startTime : null,
                                 intermediateBytes: inter ? inter.decodedBodySize : null };""");
                browser.shot("dashboard-13-10k-charts");

                Path results = Browser.outputDir("ui.results");
                if (results != null) {
                    Files.writeString(results.resolve("dashboard-10k.md"), report(browser, loadBefore, w, fillMs, storeBytes, loads, passes, sortMs, filterMs, charts, answers));
                }
            } finally {
                view.stop();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Double> numbers(Object list) {
        return ((List<Number>) list).stream().map(Number::doubleValue).toList();
    }

    /** intervals | median | 95th percentile | max | frames over 50 ms */
    private static String frameRow(List<Double> frames) {
        return frames.size() + " | **" + f(median(frames)) + " ms** | " + f(percentile(frames, 0.95)) + " ms | **"
                + f(frames.stream().mapToDouble(x -> x).max().orElse(0)) + " ms** | **" + frames.stream().filter(x -> x > 50).count() + "**";
    }

    private static double num(Object o) {
        return o == null ? Double.NaN : ((Number) o).doubleValue();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double percentile(List<Double> xs, double p) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p * s.size()) - 1));
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return "unknown";
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (Exception e) {
            return "unknown";
        }
    }

    @SuppressWarnings("unchecked")
    private static String report(Browser browser, String loadBefore, Written w, long fillMs, long storeBytes, List<Map<String, Object>> loads,
                                 List<Map<String, Object>> passes, double sortMs, double filterMs, Map<String, Object> charts, Map<String, Object> answers) {
        StringBuilder b = new StringBuilder();
        b.append("# The dashboard over 10,000 trials\n\n");
        b.append("Measured by `DashboardScaleIT` (distribution/src/test/java/org/tunekit/it/DashboardScaleIT.java) on ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(":\n\n");
        b.append("- machine: ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs (`nproc`), ").append(cpu())
                .append(", load average (`/proc/loadavg`) ").append(loadBefore).append(" at the start and ").append(loadAverage())
                .append(" at the end: a machine shared with other work, so that the figures vary from run to run\n");
        b.append("- browser: ").append(browser.version()).append(", headless (`--headless=new --no-sandbox --disable-gpu`), a 1400x1000 page, through Debian's chromedriver\n");
        b.append("- server: `tunekit view FOLDER --port 0` (Java ").append(System.getProperty("java.version")).append("), on the same machine\n");
        b.append("- store: a real experiment's `experiment.db` (`tunekit run` of one trial) with its trial replaced by ").append(w.trials())
                .append(" trials written in one transaction (").append(fillMs).append(" ms), ").append(w.metrics()).append(" metrics rows (a final value for every trial that ")
                .append("succeeded or stopped early, ").append(STEPS).append(" intermediate results for every ").append(CURVE_EVERY)
                .append("th trial), 5 parameters (uniform, loguniform, choice of 3, randint, quniform); statuses ").append(w.statuses())
                .append("; ").append(storeBytes / 1024).append(" KiB\n\n");
        b.append("Reproduce (from the checkout; the first command builds the jars the test runs):\n\n```\n")
                .append("./mvnw -B -ntp -q -o -pl distribution -am package -DskipTests -Dmaven.test.skip.exec=true -Djazzer.skip\n")
                .append("./mvnw -B -ntp -o -pl distribution -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \\\n")
                .append("    -Djazzer.skip -Dit.test=DashboardScaleIT -Dui.results=bench/results/ui -Dui.screenshots=bench/results/ui\n```\n\n");

        b.append("## The trial table's first rows\n\n");
        b.append("From the navigation's start (`performance.now()` in the page, whose origin is the navigation's start) to the first `tr.row` in the ")
                .append("table (a MutationObserver put in the page before its scripts), and to the frame after it; the page opened ").append(LOADS)
                .append(" times at `#/e/ID/trials`, each a new document (the first one is the server's first read of the store).\n\n");
        b.append("| load | DOMContentLoaded | `/state` answered (sent at) | state JSON (gzip on the wire) | first rows in the table | the frame after |\n");
        b.append("|---|---|---|---|---|---|\n");
        List<Double> rows = new ArrayList<>();
        for (int i = 0; i < loads.size(); i++) {
            Map<String, Object> l = loads.get(i);
            rows.add(num(l.get("painted")));
            b.append("| ").append(i + 1).append(" | ").append(f(num(l.get("dcl")))).append(" ms | ").append(f(num(l.get("stateEnd")))).append(" ms (")
                    .append(f(num(l.get("stateStart")))).append(" ms) | ").append(Math.round(num(l.get("stateBody")) / 1024)).append(" KiB (")
                    .append(Math.round(num(l.get("stateBytes")) / 1024)).append(" KiB) | ").append(f(num(l.get("rows")))).append(" ms | ")
                    .append(f(num(l.get("painted")))).append(" ms |\n");
        }
        b.append("\nMedian to the frame after the first rows: **").append(f(median(rows))).append(" ms**.\n\n");

        b.append("## Scrolling the table from the first trial to the last\n\n");
        b.append("The table's box (").append(Math.round(num(passes.get(0).get("max")))).append(" px of scrolling: ").append(w.trials())
                .append(" rows of 30 px) scrolled from top to bottom in ").append(SCROLL_STEPS)
                .append(" steps, one per `requestAnimationFrame`, each step about 100 rows on (the table draws only the rows in sight, again at each scroll), ")
                .append(SCROLL_PASSES).append(" times; the time between frames:\n\n");
        b.append("| pass | intervals | median | 95th percentile | max | frames over 50 ms |\n|---|---|---|---|---|---|\n");
        List<Double> frames = new ArrayList<>();
        for (int i = 0; i < passes.size(); i++) {
            List<Double> one = numbers(passes.get(i).get("frames"));
            frames.addAll(one);
            b.append("| ").append(i + 1).append(" | ").append(frameRow(one)).append(" |\n");
        }
        b.append("| all | ").append(frameRow(frames)).append(" |\n\n");
        long[] vsyncs = new long[5];
        for (double x : frames) {
            vsyncs[(int) Math.min(4, Math.max(1, Math.round(x / (1000.0 / 60))))]++;
        }
        b.append("Frames are paced by the display's 60 Hz (16.7 ms): of the ").append(frames.size()).append(" intervals, ").append(vsyncs[1])
                .append(" were one frame, ").append(vsyncs[2]).append(" two, ").append(vsyncs[3]).append(" three, ").append(vsyncs[4]).append(" four or more.\n\n");
        Map<String, Object> scroll = new LinkedHashMap<>();
        for (String k : List.of("paints", "assigns", "long")) {
            scroll.put(k, passes.stream().flatMap(p -> ((List<Object>) p.get(k)).stream()).toList());
        }
        List<Double> paints = ((List<Number>) scroll.get("paints")).stream().map(Number::doubleValue).toList();
        if (!paints.isEmpty()) {
            b.append("Where the time goes (all passes): the table's scroll handler (it builds the rows in sight) took a median ").append(f(median(paints)))
                    .append(" ms, max ").append(f(paints.stream().mapToDouble(x -> x).max().orElse(0))).append(" ms, over ").append(paints.size()).append(" scroll events");
        }
        List<Map<String, Object>> slow = (List<Map<String, Object>>) scroll.get("long");
        if (!slow.isEmpty()) {
            List<Double> d = slow.stream().map(m -> num(m.get("duration"))).toList();
            List<Double> sc = slow.stream().map(m -> num(m.get("script"))).toList();
            List<Double> la = slow.stream().map(m -> num(m.get("layout"))).toList();
            b.append("; Chrome counted ").append(slow.size()).append(" long animation frames (over 50 ms of work): median ").append(f(median(d)))
                    .append(" ms, of which scripts ").append(f(median(sc))).append(" ms and style and layout ").append(f(median(la))).append(" ms (medians); their longest scripts: ")
                    .append(String.valueOf(slow.stream().map(m -> String.valueOf(m.get("top")))
                            .collect(java.util.stream.Collectors.groupingBy(x -> x, java.util.TreeMap::new, java.util.stream.Collectors.counting()))));
        }
        List<Double> assigns = ((List<Number>) scroll.get("assigns")).stream().map(Number::doubleValue).toList();
        b.append(". Setting the box's `scrollTop` in the frame callback (which makes the browser lay out the rows drawn at the step before) took a median ")
                .append(f(median(assigns))).append(" ms, max ").append(f(assigns.stream().mapToDouble(x -> x).max().orElse(0))).append(" ms.\n\n");
        b.append("The last trial's row was then shown at the bottom of the box.\n\n");

        b.append("## Sorting, filtering, charts\n\n");
        b.append("- sort by value (a click on the header; the page's own work, measured around the click): ").append(f(sortMs)).append(" ms\n");
        b.append("- filter `optimizer=sgd` (one input event; ").append(w.sgd()).append(" trials kept): ").append(f(filterMs)).append(" ms\n");
        b.append("- the charts page over every trial (value over trials, intermediate curves, parallel coordinates, importance, durations, 5 slices): ")
                .append(f(num(charts.get("route")))).append(" ms of drawing after the route changed, ").append(f(num(charts.get("frame"))))
                .append(" ms to the next frame; its answers from the server: intermediate curves of the trials shown ")
                .append(f(num(answers.get("intermediate")))).append(" ms (").append(Math.round(num(answers.get("intermediateBytes")) / 1024))
                .append(" KiB), importance (fANOVA over every ranked trial) ").append(f(num(answers.get("importance")))).append(" ms\n\n");
        b.append("Screenshots: `dashboard-11-10k-trials.png`, `dashboard-12-10k-trials-bottom.png`, `dashboard-13-10k-charts.png` beside this file.\n");
        return b.toString();
    }
}
