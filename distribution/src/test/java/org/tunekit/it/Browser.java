package org.tunekit.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real browser for the dashboard's end-to-end tests: Debian's headless Chromium driven through its own
 * chromedriver (given, so that Selenium Manager never looks for one to download). Without them the
 * test is skipped and says why. Screenshots go to {@code -Dui.screenshots=DIR} when it is set.
 */
final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of(System.getProperty("ui.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("ui.chromedriver", "/usr/bin/chromedriver"));
    static final int WIDTH = 1400;
    static final int HEIGHT = 1000;
    /** Long enough for a trial to start or end on a busy 2-core machine; the waits return as soon as the page shows it. */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    final ChromeDriver driver;
    private final Path screenshots;

    private Browser(ChromeDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    /** Opens headless Chromium at 1400x1000, or skips the test when Chromium or its driver is missing. */
    static Browser open() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM), "no browser: " + CHROMIUM
                + " is missing (apt-get install chromium chromium-driver, or -Dui.chromium=PATH): the dashboard's browser test is skipped");
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "no browser driver: " + CHROMEDRIVER
                + " is missing (apt-get install chromium-driver, or -Dui.chromedriver=PATH): the dashboard's browser test is skipped");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=" + WIDTH + "," + HEIGHT,
                "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        Path shots = outputDir("ui.screenshots");
        ChromeDriver driver = new ChromeDriver(service, options);
        // the page gets the whole 1400x1000 (the window's size counts the window's frame), so that screenshots are that size
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", WIDTH, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
        return new Browser(driver, shots);
    }

    /** The folder that the system property {@code name} names (relative to the checkout), made when missing; {@code null} when it is not set. */
    static Path outputDir(String name) throws IOException {
        String dir = System.getProperty(name, "");
        if (dir.isBlank()) {
            return null;
        }
        return Files.createDirectories(TunekitProcess.HOME.resolve(dir));
    }

    /** The browser's version, as it reports itself. */
    String version() {
        return driver.getCapabilities().getBrowserName() + " " + driver.getCapabilities().getBrowserVersion();
    }

    void go(String url) {
        driver.get(url);
    }

    /** Waits until {@code condition} gives something other than null or false, and returns it; fails with {@code what}. */
    <T> T until(String what, Function<WebDriver, T> condition) {
        return until(what, PATIENCE, condition);
    }

    <T> T until(String what, Duration within, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, within, Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class)
                .withMessage(what)
                .until(condition);
    }

    /** Clicks the element, again when the page redrew it between finding and clicking. */
    void click(By by) {
        until("click " + by, ExpectedConditions.elementToBeClickable(by));
        until("click " + by, d -> {
            d.findElement(by).click();
            return true;
        });
    }

    /** Accepts the confirm() the last click opened. */
    String acceptConfirm() {
        var alert = until("a confirm dialog", ExpectedConditions.alertIsPresent());
        String text = alert.getText();
        alert.accept();
        return text;
    }

    WebElement find(By by) {
        return until("the page shows " + by, ExpectedConditions.visibilityOfElementLocated(by));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    Object jsAsync(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    /** The last answer the page told in its toast. */
    String toast() {
        return driver.findElement(By.id("toast")).getText();
    }

    /**
     * The trial table as shown (the rows drawn, in their order): each row's cells by their column's key
     * ({@code seq}, {@code job}, {@code status}, {@code value}, {@code p:x}, ...), read at once so that
     * a redraw between two reads cannot mix two versions.
     */
    @SuppressWarnings("unchecked")
    List<Map<String, String>> table() {
        return (List<Map<String, String>>) js("""
                const box = document.getElementById('trial-table');
                if (!box) return [];
                const keys = [...box.querySelectorAll('thead th')].map(th => th.dataset.key || '');
                return [...box.querySelectorAll('tbody tr.row')].map(r => {
                  const o = { job: r.dataset.job };
                  [...r.cells].forEach((c, i) => { if (keys[i]) o[keys[i]] = c.textContent.trim(); });
                  return o;
                });""");
    }

    /** Saves a screenshot of the window as {@code NAME.png} when {@code -Dui.screenshots} is set. */
    void shot(String name) {
        if (screenshots == null) {
            return;
        }
        // the mouse off the links it last clicked, and the last answer's toast gone, as a person would see the page
        new Actions(driver).moveToLocation(WIDTH - 3, HEIGHT - 3).perform();
        until("the toast fades", Duration.ofSeconds(10), d -> "0".equals(js("return getComputedStyle(document.getElementById('toast')).opacity")));
        try {
            Files.write(screenshots.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether screenshots are asked for. */
    boolean shooting() {
        return screenshots != null;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
