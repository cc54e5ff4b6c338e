package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.it.Sql.strings;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The web dashboard in a real browser (headless Chromium through Selenium), served by the real
 * {@code tunekit run} and {@code tunekit view} processes: a running experiment watched and steered from
 * the page, an ended multi-objective one, and the token that guards a dashboard served to other machines.
 * Every check waits for what the page shows (no fixed sleeps, no clock limits). With
 * {@code -Dui.screenshots=DIR} it saves a PNG of each view.
 */
class DashboardIT {
    private static final Gson GSON = new Gson();

    private static Browser browser;

    @TempDir
    Path tmp;

    /** One browser for the class, opened by the first test (each test is skipped, saying why, when there is none). */
    @BeforeEach
    void openBrowser() throws Exception {
        if (browser == null) {
            browser = Browser.open();
        }
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private RunningTunekit tunekit(String name, String... args) throws Exception {
        return RunningTunekit.start(tmp.resolve("experiments"), tmp.resolve(name + "-stderr.txt"), args);
    }

    private Path experimentConfig(String script, String config) throws Exception {
        return RunningTunekit.experimentConfig(tmp.resolve("code"), script, config);
    }

    private String runToEnd(Path config) throws Exception {
        return RunningTunekit.runToEnd(tmp.resolve("experiments"), tmp.resolve("run-stderr.txt"), config);
    }

    private static Path store(Path experiments, String id) {
        return experiments.resolve(id).resolve("experiment.db");
    }

    private static List<Map<String, String>> rows(List<Map<String, String>> table, String key, String value) {
        return table.stream().filter(r -> value.equals(r.get(key))).toList();
    }

    private static Map<String, String> row(String job) {
        return browser.table().stream().filter(r -> job.equals(r.get("job"))).findFirst().orElse(null);
    }

    private static List<Double> values(List<Map<String, String>> table) {
        List<Double> out = new ArrayList<>();
        for (Map<String, String> r : table) {
            String v = r.get("value");
            out.add(v == null || v.isEmpty() ? null : Double.valueOf(v));
        }
        return out;
    }

    private static void scrollTo(String id) {
        browser.js("const p = document.getElementById(arguments[0]).closest('.panel'); window.scrollTo(0, p.getBoundingClientRect().top + window.scrollY - 50);", id);
    }

    /** The number of data points of an ECharts chart's series {@code index}, or -1 while it has none. */
    private static long chartPoints(String id, int index) {
        Object n = browser.js("""
                const c = echarts.getInstanceByDom(document.getElementById(arguments[0]));
                const o = c && c.getOption();
                const s = o && o.series;
                return s && s[arguments[1]] && s[arguments[1]].data ? s[arguments[1]].data.length : -1;""", id, index);
        return ((Number) n).longValue();
    }

    @Test
    void aRunningExperimentIsWatchedAndSteeredFromThePage() throws Exception {
        // trials of about 4 s (4 intermediate results a second apart, then the final one), one at a time to begin with
        Path config = experimentConfig("trial.sh", """
                experimentName: dashboard-it
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                  lr: {_type: loguniform, _value: [0.0001, 0.1]}
                  optimizer: {_type: choice, _value: [adam, sgd]}
                trialCommand: STEPS=4 PAUSE=1 sh trial.sh
                trialCodeDirectory: .
                trialConcurrency: 1
                maxTrialNumber: 80
                maxTrialDuration: 2m
                tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 11}}
                trainingService: {platform: local}
                """);
        RunningTunekit run = tunekit("run", "run", config.toString(), "--port", "0");
        try {
            String id = run.printed(RunningTunekit.EXPERIMENT);
            String address = run.printed(RunningTunekit.DASHBOARD);
            assertThat(address).startsWith("http://127.0.0.1:").endsWith("/#/e/" + id);
            Path db = store(tmp.resolve("experiments"), id);

            // the overview of the experiment, then its trials: the first one runs, then ends, and the next runs
            browser.go(address);
            browser.until("the overview shows the experiment", d -> d.findElement(By.id("cards")).getText().contains("Trials"));
            assertThat(browser.find(By.id("crumb")).getText()).contains("dashboard-it").contains(id);
            browser.click(By.id("tab-trials"));
            String first = browser.until("a trial runs", d -> {
                var running = rows(browser.table(), "status", "RUNNING");
                return running.isEmpty() ? null : running.get(0).get("job");
            });
            browser.until("trial " + first + " ends with a value", d -> {
                Map<String, String> r = row(first);
                return r != null && "SUCCEEDED".equals(r.get("status")) && !r.get("value").isEmpty();
            });
            browser.until("the next trial runs", d -> browser.table().stream().anyMatch(r -> !r.get("job").equals(first) && "RUNNING".equals(r.get("status"))));

            // add a trial with given parameters from the overview's form: it runs next, with exactly those parameters
            browser.click(By.id("tab-overview"));
            WebElement x = browser.find(By.cssSelector("#add-trial [data-param=x]"));
            x.clear();
            x.sendKeys("0.123");
            WebElement lr = browser.find(By.cssSelector("#add-trial [data-param=lr]"));
            lr.clear();
            lr.sendKeys("0.00321");
            new Select(browser.find(By.cssSelector("#add-trial [data-param=optimizer]"))).selectByVisibleText("sgd");
            browser.click(By.id("add-trial-button"));
            String added = browser.until("the runner answers the added trial", d -> browser.toast().contains("added") ? browser.toast() : null);
            assertThat(added).matches("parameters \\d+ added: they run next");
            long answeredAt;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
                answeredAt = Long.parseLong(strings(c, "SELECT answered_ms FROM requests WHERE kind = 'add-trial'").get(0));
            }

            // stop a running trial of the tuner's from its row's button (one early in its run, so that it cannot end first): it ends USER_CANCELED
            browser.click(By.id("tab-trials"));
            String victim = browser.until("a running trial of the tuner's, early in its run", d -> browser.table().stream()
                    .filter(r -> "RUNNING".equals(r.get("status")) && !"0.123".equals(r.get("p:x")) && Integer.parseInt(r.get("steps")) < 3)
                    .map(r -> r.get("job")).findFirst().orElse(null));
            browser.click(By.cssSelector("button[data-stop='" + victim + "']"));
            assertThat(browser.acceptConfirm()).contains("Stop trial " + victim);
            browser.until("trial " + victim + " ends USER_CANCELED", d -> {
                Map<String, String> r = row(victim);
                return r != null && "USER_CANCELED".equals(r.get("status"));
            });
            Map<String, String> mine = browser.until("the added trial runs", d -> browser.table().stream()
                    .filter(r -> "0.123".equals(r.get("p:x"))).findFirst().orElse(null));
            assertThat(mine.get("p:lr")).isEqualTo("0.00321");
            assertThat(mine.get("p:optimizer")).isEqualTo("sgd");
            String addedJob = mine.get("job");
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                 PreparedStatement p = c.prepareStatement("SELECT job_id, parameter_record FROM trials WHERE started_ms >= ? ORDER BY sequence LIMIT 1")) {
                p.setLong(1, answeredAt);
                try (ResultSet r = p.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getString(1)).as("the first trial started after the request was answered").isEqualTo(addedJob);
                    JsonObject record = GSON.fromJson(r.getString(2), JsonObject.class);
                    assertThat(record.getAsJsonObject("parameters")).isEqualTo(GSON.fromJson("{\"x\": 0.123, \"lr\": 0.00321, \"optimizer\": \"sgd\"}", JsonObject.class));
                }
            }

            // raise the trials at once from 1 to 3 with the form: three run together
            browser.click(By.id("tab-overview"));
            WebElement conc = browser.find(By.id("set-concurrency"));
            assertThat(conc.getAttribute("value")).isEqualTo("1");
            conc.clear();
            conc.sendKeys("3");
            browser.click(By.id("apply-limits"));
            String limits = browser.until("the runner answers the new limits", d -> browser.toast().contains("trialConcurrency") ? browser.toast() : null);
            assertThat(limits).contains("trialConcurrency 1 -> 3");
            browser.click(By.id("tab-trials"));
            browser.until("three trials run at once", d -> rows(browser.table(), "status", "RUNNING").size() == 3);
            browser.shot("dashboard-03-trials");

            // the added trial's page: its parameters and what it printed
            browser.click(By.cssSelector("tr.row[data-job='" + addedJob + "'] a"));
            browser.until("the trial's page shows its parameters", d -> {
                String t = d.findElement(By.id("trial-parameters")).getText();
                return t.contains("x 0.123") && t.contains("lr 0.00321") && t.contains("optimizer sgd");
            });
            browser.until("the trial's page shows its output", d -> d.findElement(By.id("stdout")).getText()
                    .contains("parameters: x=0.123 lr=0.00321 optimizer=sgd") && d.findElement(By.id("stdout")).getText().contains("step 1:"));
            browser.shot("dashboard-04-trial");

            // once trials have ended: the overview of the running experiment, sorting and filtering the table
            browser.click(By.id("tab-trials"));
            browser.until("eight trials have ended with a value", d -> rows(browser.table(), "status", "SUCCEEDED").size() >= 8);
            browser.click(By.id("tab-overview"));
            browser.until("the overview counts the trials", d -> d.findElement(By.id("cards")).getText().contains("succeeded"));
            browser.until("the overview's chart draws", d -> !d.findElements(By.cssSelector("#main .chart canvas")).isEmpty());
            browser.shot("dashboard-02-overview-running");
            browser.click(By.id("tab-trials"));

            browser.click(By.cssSelector("th[data-key=value]"));
            browser.until("the table sorts by value, smallest first", d -> d.findElement(By.cssSelector("th[data-key=value]")).getAttribute("class").contains("sorted up"));
            assertSorted(values(browser.table()), true);
            browser.click(By.cssSelector("th[data-key=value]"));
            browser.until("the table sorts by value, largest first", d -> {
                String cls = d.findElement(By.cssSelector("th[data-key=value]")).getAttribute("class");
                return cls.contains("sorted") && !cls.contains("up");
            });
            assertSorted(values(browser.table()), false);

            List<String> others = List.of("RUNNING", "FAILED", "EARLY_STOPPED", "USER_CANCELED", "LOST");
            for (String s : others) {
                browser.click(By.cssSelector("input[data-status=" + s + "]"));
            }
            browser.until("only succeeded trials are shown", d -> {
                List<Map<String, String>> t = browser.table();
                return !t.isEmpty() && t.stream().allMatch(r -> "SUCCEEDED".equals(r.get("status")));
            });
            assertThat(browser.find(By.id("trial-count")).getText()).matches("\\d+ of \\d+ trials.*");
            for (String s : others) {
                browser.click(By.cssSelector("input[data-status=" + s + "]"));
            }
            browser.until("every status is shown again", d -> browser.table().stream().anyMatch(r -> "USER_CANCELED".equals(r.get("status"))));
            List<Map<String, String>> all = browser.table();
            assertThat(all).as("a trial with x of 0.5 or more, for the filter to leave out").anyMatch(r -> Double.parseDouble(r.get("p:x")) >= 0.5);
            browser.find(By.id("trial-filter")).sendKeys("x<0.5");
            browser.until("only trials with x < 0.5 are shown", d -> {
                List<Map<String, String>> t = browser.table();
                return !t.isEmpty() && t.stream().allMatch(r -> Double.parseDouble(r.get("p:x")) < 0.5)
                        && t.stream().anyMatch(r -> addedJob.equals(r.get("job")));
            });
            assertThat(browser.table()).noneMatch(r -> Double.parseDouble(r.get("p:x")) >= 0.5);
            browser.find(By.id("trial-filter")).sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
            browser.until("the filter is cleared", d -> browser.table().stream().anyMatch(r -> Double.parseDouble(r.get("p:x")) >= 0.5));

            // select two trials and compare them
            List<String> two = rows(browser.table(), "status", "SUCCEEDED").stream().limit(2).map(r -> r.get("job")).toList();
            for (String job : two) {
                browser.click(By.cssSelector("tr.row[data-job='" + job + "'] td:first-child input"));
            }
            browser.until("two trials are selected", d -> d.findElement(By.id("trial-count")).getText().contains("2 selected"));
            browser.click(By.id("compare-button"));
            browser.until("the compare view shows both", d -> {
                String t = d.findElement(By.id("compare-table")).getText();
                return t.contains(two.get(0)) && t.contains(two.get(1));
            });
            browser.until("the compare view draws both curves", d -> ((Number) browser.js("""
                    const c = echarts.getInstanceByDom(document.querySelector('#main .chart'));
                    const o = c && c.getOption();
                    const s = o && o.series;
                    return s ? s.filter(x => x.data && x.data.length).length : 0;""")).intValue() == 2);
            browser.shot("dashboard-08-compare");

            // the charts: each container holds a canvas, and the importance panel shows a bar per parameter
            browser.click(By.id("tab-charts"));
            for (String chart : List.of("chart-value", "chart-intermediate", "chart-parallel", "chart-importance", "chart-durations")) {
                browser.until(chart + " draws", d -> !d.findElements(By.cssSelector("#" + chart + " canvas")).isEmpty());
            }
            // ECharts draws a chart of many points on more than one canvas: count the charts that have one
            browser.until("a slice per parameter", d -> ((Number) browser.js(
                    "return [...document.querySelectorAll('#slices .chart')].filter(c => c.querySelector('canvas')).length")).intValue() == 3);
            browser.until("the importance panel shows a bar per parameter", d -> chartPoints("chart-importance", 0) == 3);
            browser.until("the value chart shows the trials ended", d -> chartPoints("chart-value", 0) >= 8);
            browser.shot("dashboard-05-charts");
            scrollTo("chart-parallel");
            browser.shot("dashboard-06-charts-parallel-importance");
            browser.js("window.scrollTo(0, document.getElementById('slices').getBoundingClientRect().top + window.scrollY - 90)");
            browser.shot("dashboard-07-charts-slices");

            // the experiments page lists it, running
            browser.click(By.cssSelector("a.brand"));
            WebElement listed = browser.until("the experiments page lists the experiment", d -> d.findElements(By.cssSelector("#experiments tbody tr")).stream()
                    .filter(r -> r.getText().contains(id)).findFirst().orElse(null));
            assertThat(listed.getText()).contains("dashboard-it").contains("RUNNING").contains("TPE");
            browser.shot("dashboard-01-experiments");

            // stop the experiment from its overview: the process ends
            browser.click(By.linkText(id));
            browser.click(By.id("stop-experiment"));
            assertThat(browser.acceptConfirm()).contains("Stop the experiment");
            assertThat(run.process().waitFor(2, TimeUnit.MINUTES)).as("tunekit run exits once stopped").isTrue();
            assertThat(run.process().exitValue()).as(run.err()).isEqualTo(130);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
                assertThat(strings(c, "SELECT status FROM experiment")).containsExactly("STOPPED");
                assertThat(strings(c, "SELECT DISTINCT status FROM trials WHERE status = 'RUNNING'")).isEmpty();
            }
        } finally {
            run.stop();
        }
    }

    private static void assertSorted(List<Double> shown, boolean up) {
        assertThat(shown).as("values shown").isNotEmpty();
        int firstBlank = shown.indexOf(null);
        List<Double> numbers = firstBlank < 0 ? shown : shown.subList(0, firstBlank);
        assertThat(shown.subList(numbers.size(), shown.size())).as("trials without a value come last").containsOnlyNulls();
        assertThat(numbers).as("values shown").hasSizeGreaterThanOrEqualTo(8);
        if (up) {
            assertThat(numbers).isSorted();
        } else {
            List<Double> reversed = new ArrayList<>(numbers);
            java.util.Collections.reverse(reversed);
            assertThat(reversed).isSorted();
        }
    }

    @Test
    void anEndedMultiObjectiveExperimentShowsItsParetoFront() throws Exception {
        Path config = experimentConfig("objectives.sh", """
                experimentName: dashboard-two-objectives
                searchSpace:
                  x: {_type: uniform, _value: [-3, 3]}
                  y: {_type: uniform, _value: [-3, 3]}
                  size: {_type: choice, _value: [small, large]}
                trialCommand: sh objectives.sh
                trialCodeDirectory: .
                trialConcurrency: 3
                maxTrialNumber: 24
                tuner:
                  name: MOTPE
                  classArgs:
                    seed: 7
                    objectives:
                      - {metric: error, mode: minimize, reference: 10}
                      - {metric: cost, mode: minimize, reference: 20}
                trainingService: {platform: local}
                """);
        String id = runToEnd(config);
        RunningTunekit view = tunekit("view", "view", id, "--port", "0");
        try {
            String address = view.printed(RunningTunekit.DASHBOARD);
            assertThat(address).startsWith("http://127.0.0.1:").endsWith("/#/e/" + id);
            browser.go(address);
            browser.until("the overview shows the ended experiment", d -> d.findElement(By.id("cards")).getText().contains("24 / 24"));
            browser.click(By.id("tab-trials"));
            browser.until("the table has a column per objective", d -> !d.findElements(By.cssSelector("th[data-key='obj:error']")).isEmpty()
                    && !d.findElements(By.cssSelector("th[data-key='obj:cost']")).isEmpty());
            List<Map<String, String>> table = browser.until("the table shows the 24 trials", d -> {
                List<Map<String, String>> t = browser.table();
                return t.size() == 24 ? t : null;
            });
            assertThat(browser.driver.findElements(By.cssSelector("th[data-key=value]"))).as("no single value column").isEmpty();
            for (Map<String, String> r : table) {
                assertThat(r.get("status")).isEqualTo("SUCCEEDED");
                assertThat(Double.parseDouble(r.get("obj:error"))).isPositive();
                assertThat(Double.parseDouble(r.get("obj:cost"))).isGreaterThanOrEqualTo(1.0);
            }
            browser.click(By.id("tab-charts"));
            browser.until("the Pareto chart draws", d -> !d.findElements(By.cssSelector("#chart-pareto canvas")).isEmpty());
            long front = browser.until("the Pareto front has trials", d -> {
                long n = chartPoints("chart-pareto", 1);
                return n > 0 ? n : null;
            });
            assertThat(chartPoints("chart-pareto", 0) + front).as("every trial is a point of the Pareto chart").isEqualTo(24);
            scrollTo("chart-pareto");
            browser.shot("dashboard-09-multi-objective-pareto");
            browser.click(By.id("tab-overview"));
            browser.until("the overview lists the front", d -> d.findElement(By.id("best")).getText().contains("error (minimize)"));
            browser.shot("dashboard-10-multi-objective-overview");
        } finally {
            view.stop();
        }
    }

    @Test
    void servedToOtherMachinesItNeedsItsToken() throws Exception {
        Path config = experimentConfig("trial.sh", """
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                trialCommand: STEPS=1 PAUSE=0 sh trial.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 2
                tuner: {name: Random, classArgs: {seed: 3}}
                trainingService: {platform: local}
                """);
        String id = runToEnd(config);
        RunningTunekit view = tunekit("view", "view", id, "--host", "0.0.0.0", "--port", "0");
        try {
            String address = view.printed(RunningTunekit.DASHBOARD);
            Matcher m = Pattern.compile("^http://0\\.0\\.0\\.0:(\\d+)/\\?token=([0-9a-f]{32})#/e/" + id + "$").matcher(address);
            assertThat(m.matches()).as(address).isTrue();
            String origin = "http://127.0.0.1:" + m.group(1);
            String token = m.group(2);
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(origin + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as("the page without the token").isEqualTo(403);
            HttpResponse<String> api = http.send(HttpRequest.newBuilder(URI.create(origin + "/api/experiments")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(api.statusCode()).as("the API without the token").isEqualTo(403);
            assertThat(api.body()).contains("token");
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(origin + "/api/experiments")).header("X-Tunekit-Token", "0".repeat(32)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(wrong.statusCode()).as("the API with a wrong token").isEqualTo(403);
            HttpResponse<String> right = http.send(HttpRequest.newBuilder(URI.create(origin + "/api/experiments")).header("X-Tunekit-Token", token).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(right.statusCode()).isEqualTo(200);
            assertThat(right.body()).contains(id);
            HttpResponse<String> traded = http.send(HttpRequest.newBuilder(URI.create(origin + "/?token=" + token)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(traded.statusCode()).as("the token in the address is traded for a cookie").isEqualTo(303);
            assertThat(traded.headers().firstValue("Location")).hasValue("/");
            assertThat(traded.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("tunekit_token=" + token + ";").contains("HttpOnly"));
            // a control needs the header even with the cookie: a page elsewhere can make the browser send the cookie, not the header
            HttpResponse<String> control = http.send(HttpRequest.newBuilder(URI.create(origin + "/api/experiments/" + id + "/requests"))
                            .header("Content-Type", "application/json").header("Cookie", "tunekit_token=" + token)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"stop\", \"payload\": {}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(control.statusCode()).as("a control without the X-Tunekit-Token header").isEqualTo(403);
            assertThat(control.body()).contains("X-Tunekit-Token");

            // the browser opens the printed address (on this machine's loopback): it follows the redirect, keeps the cookie, drops the token
            browser.go(origin + "/?token=" + token + "#/e/" + id);
            browser.until("the overview shows the experiment", d -> d.findElement(By.id("cards")).getText().contains("2 / 2"));
            assertThat(browser.driver.getCurrentUrl()).isEqualTo(origin + "/#/e/" + id);
            browser.click(By.id("tab-trials"));
            browser.until("the trials are read with the cookie", d -> browser.table().size() == 2);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store(tmp.resolve("experiments"), id))) {
                assertThat(strings(c, "SELECT kind FROM requests")).as("no request was recorded").isEmpty();
            }
        } finally {
            view.stop();
        }
    }
}
