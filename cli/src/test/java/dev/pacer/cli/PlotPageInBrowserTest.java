package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.awt.image.BufferedImage;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plot page in a real browser: Debian's Chromium, headless, runs the page's script on pages real
 * runs wrote, and the test reads the DOM it leaves (--dump-dom): each chart's drawn points
 * ({@code data-drawn}), its largest value in view ({@code data-ymax}) and what its tooltip said when
 * the page hovered over its middle ({@code data-hover}). Skips loudly without Chromium, unless
 * {@code PACER_REQUIRE_CHROMIUM=1} (CI sets it after {@code .ci/chromium.sh} installed it): then it
 * fails. With {@code -Dpacer.screenshots=DIR} the screenshots are also copied there (docs/reports.md's come
 * from {@code -Dpacer.screenshots=docs}).
 */
class PlotPageInBrowserTest {

    private static final Pattern CHART = Pattern.compile("<div class=\"chart\" id=\"([^\"]+)\"([^>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("(data-[a-z]+)=\"([^\"]*)\"");

    @TempDir
    Path dir;

    Path chromium;

    static Path chromium() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    @BeforeEach
    void needsChromium() {
        chromium = chromium();
        if (chromium == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_CHROMIUM"))) {
                throw new AssertionError("Chromium is required (PACER_REQUIRE_CHROMIUM=1) but not installed: run "
                        + ".ci/chromium.sh");
            }
            System.err.println("!!! SKIPPING the browser test of the plot page: Chromium is not installed "
                    + "(.ci/chromium.sh)");
            Assumptions.abort("chromium is not installed");
        }
    }

    Process browser(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(dir.resolve("chromium.err").toFile()).start();
    }

    /**
     * The browser's profile, outside {@link #dir}: Chromium's helper processes can outlive it by a moment, writing
     * into the profile while JUnit deletes the temporary directory, which then fails the test; this one is deleted
     * as far as it can be after each test.
     */
    private Path profile;

    private Path profile() throws java.io.IOException {
        if (profile == null) {
            profile = Files.createTempDirectory("pacer-chromium-profile");
        }
        return profile;
    }

    @org.junit.jupiter.api.AfterEach
    void deleteTheProfile() throws Exception {
        if (profile == null) {
            return;
        }
        for (int attempt = 0; attempt < 20; attempt++) {
            try (var walk = Files.walk(profile)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (java.io.IOException stillWritten) {
                Thread.sleep(100); // a helper still writes into it: once it has ended, the rest goes
            }
        }
    }

    /** The page's DOM after its script ran. */
    String dom(Path page) throws Exception {
        Process dom = browser("--window-size=1280,2000", "--dump-dom", page.toUri().toString());
        String html = new String(dom.getInputStream().readAllBytes());
        assertTrue(dom.waitFor(60, TimeUnit.SECONDS), "chromium finished");
        return html;
    }

    /** Each chart's data attributes, by the chart's id. */
    static Map<String, Map<String, String>> charts(String dom) {
        Map<String, Map<String, String>> charts = new LinkedHashMap<>();
        Matcher c = CHART.matcher(dom);
        while (c.find()) {
            Map<String, String> attributes = new LinkedHashMap<>();
            Matcher a = ATTRIBUTE.matcher(c.group(2));
            while (a.find()) {
                attributes.put(a.group(1), a.group(2).replace("&amp;", "&"));
            }
            charts.put(c.group(1), attributes);
        }
        return charts;
    }

    /** A screenshot of the page, checked to have painted colored lines; copied to -Dpacer.screenshots if set. */
    void screenshot(Path page, String name) throws Exception {
        Path png = dir.resolve(name);
        Process shot = browser("--window-size=1280,2000", "--screenshot=" + png, page.toUri().toString());
        assertTrue(shot.waitFor(60, TimeUnit.SECONDS), "chromium finished");
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1280, image.getWidth());
        assertEquals(2000, image.getHeight());
        long colored = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
                    colored++; // the series' colors, not the grey of text and grid
                }
            }
        }
        assertTrue(colored > 2_000, "colored chart lines were painted: " + colored + " samples");
        String to = System.getProperty("pacer.screenshots");
        if (to != null && !to.isBlank()) {
            Path target = Path.of(to).isAbsolute() ? Path.of(to)
                    : Path.of(System.getProperty("maven.multiModuleProjectDirectory", "..")).resolve(to);
            Files.createDirectories(target);
            Files.copy(png, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void aGoodRunsPageDrawsEveryChartWithTheTargetLineMarkersAboveThePlotAndHoverValues() throws Exception {
        Files.writeString(dir.resolve("s.yaml"), """
                phases:
                  - {name: warm, duration: 1s, rate: 300, warmup: true}
                  - {name: base, duration: 2s, rate: 500}
                  - {name: up, duration: 2s, rate: {from: 500, to: 2000}}
                """);
        PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "s.yaml", "--op", "sleep:1ms", "--threads", "4",
                "--hlog", "good.hlog", "--plot", "good.html", "-q");
        assertEquals(0, run.exitCode(), run.stderr());
        Path page = dir.resolve("good.html");
        String source = Files.readString(page);
        assertFalse(source.contains("<link") || source.contains("src=\""), "nothing loaded from elsewhere: it opens "
                + "offline");
        Matcher urls = Pattern.compile("https?://[^\"'\\s]*").matcher(source);
        while (urls.find()) {
            assertEquals("http://www.w3.org/2000/svg", urls.group(), "the only URL is the SVG namespace");
        }
        assertTrue(source.contains("<title>pacer report: good.hlog</title>"), "named after the log");
        assertTrue(source.contains("<dt>op</dt><dd>sleep:1ms</dd>") && source.contains("<dt>threads</dt><dd>4</dd>")
                && source.contains("<dt>target rate</dt><dd>300 ops/s") && source.contains("<dt>strictness</dt><dd>0 "
                        + "(average"),
                "the page states op, target, threads and strictness");

        String dom = dom(page);
        Map<String, Map<String, String>> charts = charts(dom);
        assertEquals(List.of("chart-rate", "chart-errors", "chart-time-wait", "chart-time-service",
                "chart-time-response",
                "chart-spectrum-wait", "chart-spectrum-service", "chart-spectrum-response"),
                        List.copyOf(charts.keySet()));
        charts.forEach((id, a) -> {
            assertTrue(Integer.parseInt(a.get("data-drawn")) >= (id.contains("spectrum") ? 10 : 4), id + " drew its "
                    + "data: " + a);
            assertTrue(a.get("data-hover").matches(".*: [0-9.]+ ?(µs|ms|s|ops/s|errors/s).*"), id + " hovering shows a "
                    + "value: " + a);
        });
        assertTrue(dom.matches("(?s).*<path class=\"series target\" d=\"M[^\"]*L[^\"]*\".*"), "the target line is "
                + "drawn");
        assertTrue(charts.get("chart-rate").get("data-hover").contains("target: "),
                charts.get("chart-rate").toString());
        assertEquals(0.0, Double.parseDouble(charts.get("chart-errors").get("data-ymax")), "no errors in this run");
        assertTrue(dom.contains("class=\"band\""), "the warm-up is shaded");

        Matcher plotTop = Pattern.compile("<rect class=\"plot\" x=\"[0-9.]+\" y=\"([0-9.]+)\"").matcher(dom);
        assertTrue(plotTop.find());
        double top = Double.parseDouble(plotTop.group(1));
        Matcher labels = Pattern.compile("<text class=\"markerLabel\" x=\"[0-9.]+\" "
                + "y=\"([0-9.]+)\">([^<]*)<").matcher(dom);
        List<String> seen = new ArrayList<>();
        while (labels.find()) {
            assertTrue(Double.parseDouble(labels.group(1)) < top, "a marker's label sits above the plot, not on the "
                    + "data: " + labels.group());
            seen.add(labels.group(2));
        }
        assertTrue(seen.stream().anyMatch(l -> l.contains("phase up")), "the phase change is marked: " + seen);
        screenshot(page, "report-good-run.png");
    }

    @Test
    void aWorkloadsPageDrawsEachOpsRateAndResponse() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().startsWith("/pay") ? 503 : 200, -1);
            exchange.close();
        });
        server.start();
        try {
            Files.writeString(dir.resolve("shop.yaml"), """
                    base: http://127.0.0.1:%d
                    ops:
                      browse: {weight: 3, request: "GET /items/{cycle}", check: {status: 200}}
                      pay: {weight: 1, request: "POST /pay/{cycle}", check: {status: 200}}
                    """.formatted(server.getAddress().getPort()));
            PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "shop.yaml", "--rate", "200", "--duration", "3s",
                    "--hlog", "shop.hlog", "--plot", "shop.html", "-q");
            assertEquals(1, run.exitCode(), "every payment failed: " + run.stderr());
        } finally {
            server.stop(0);
        }
        Path page = dir.resolve("shop.html");
        assertTrue(Files.readString(page).contains("<tr><td>pay</td><td>150</td><td>50.0</td><td>150</td>"),
                "the per-op table: pay's ops, rate and errors");
        Map<String, Map<String, String>> charts = charts(dom(page));
        assertEquals(List.of("chart-rate", "chart-errors", "chart-time-wait", "chart-time-service",
                "chart-time-response", "chart-op-rate", "chart-op-response", "chart-spectrum-wait",
                "chart-spectrum-service", "chart-spectrum-response"), List.copyOf(charts.keySet()), "two per-op "
                        + "charts, none per op's tag");
        Map<String, String> rate = charts.get("chart-op-rate");
        assertTrue(Integer.parseInt(rate.get("data-drawn")) >= 4, rate.toString());
        assertTrue(Double.parseDouble(rate.get("data-ymax")) >= 140, "browse at about 150 ops/s: " + rate);
        assertTrue(rate.get("data-hover").matches(".*browse: [0-9.]+ ops/s \\| pay: [0-9.]+ ops/s.*"), rate.toString());
        Map<String, String> response = charts.get("chart-op-response");
        assertTrue(response.get("data-hover").matches(".*browse: [0-9.]+ ?(µs|ms|s) \\| pay: [0-9.]+ ?(µs|ms|s).*"),
                response.toString());
    }

    @Test
    void aFailingRunsPageShowsItsErrorsOverTime() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        try {
            PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "--op", "http", "--url",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/", "--expect", "2xx", "--rate", "200",
                            "--duration", "3s",
                    "--plot", "failing.html", "-q");
            assertEquals(1, run.exitCode(), "every request failed: " + run.stderr());
        } finally {
            server.stop(0);
        }
        Path page = dir.resolve("failing.html");
        String source = Files.readString(page);
        assertTrue(source.matches("(?s).*<title>pacer report: pacer run \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d "
                + "UTC</title>.*"),
                "no --hlog: named after the run, not its temp file");
        assertTrue(source.contains("<dt>errors</dt><dd>600 (100.00 %): unexpected-5xx 600</dd>"), "the errors by type");

        Map<String, Map<String, String>> charts = charts(dom(page));
        Map<String, String> errors = charts.get("chart-errors");
        assertTrue(Integer.parseInt(errors.get("data-drawn")) >= 2, errors.toString());
        assertTrue(Double.parseDouble(errors.get("data-ymax")) >= 150, "about 200 errors/s: " + errors);
        assertTrue(errors.get("data-hover").matches(".*errors \\(all\\): [0-9.]{3,} errors/s.*"), errors.toString());
        screenshot(page, "report-failing-run.png");
    }
}
