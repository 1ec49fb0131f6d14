package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plot page in a real browser: Debian's Chromium, headless, renders the page a real run wrote.
 * Skips loudly without Chromium, unless {@code PACER_REQUIRE_CHROMIUM=1} (CI sets it after
 * {@code .ci/chromium.sh} installed it): then it fails.
 */
class PlotPageInBrowserTest {

    @TempDir
    Path dir;

    static Path chromium() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    Process browser(Path chromium, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + dir.resolve("profile")));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(dir.resolve("chromium.err").toFile()).start();
    }

    @Test
    void thePageRendersWithItsChartsDrawn() throws Exception {
        Path chromium = chromium();
        if (chromium == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_CHROMIUM"))) {
                throw new AssertionError("Chromium is required (PACER_REQUIRE_CHROMIUM=1) but not installed: run .ci/chromium.sh");
            }
            System.err.println("!!! SKIPPING the browser test of the plot page: Chromium is not installed (.ci/chromium.sh)");
            Assumptions.abort("chromium is not installed");
        }
        Files.writeString(dir.resolve("s.yaml"), """
                phases:
                  - {name: base, duration: 2s, rate: 500}
                  - {name: up, duration: 2s, rate: {from: 500, to: 2000}}
                """);
        PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "s.yaml", "--op", "sleep:1ms", "--threads", "4",
                "--plot", "page.html", "-q");
        assertEquals(0, run.exitCode(), run.stderr());
        String url = dir.resolve("page.html").toUri().toString();

        Process dom = browser(chromium, "--dump-dom", url);
        String html = new String(dom.getInputStream().readAllBytes());
        assertTrue(dom.waitFor(60, TimeUnit.SECONDS), "chromium finished");
        Matcher paths = Pattern.compile("<path class=\"series\" d=\"([^\"]*)\"").matcher(html);
        int drawn = 0;
        while (paths.find()) {
            assertTrue(paths.group(1).startsWith("M") && paths.group(1).contains("L"), "a drawn line: " + paths.group(1));
            drawn++;
        }
        assertEquals(16, drawn, "rate, all-tags distribution, and per tag a distribution and p50/p99/max over time");
        assertTrue(html.contains("phase up"), "the phase change is marked");

        Path png = dir.resolve("page.png");
        Process shot = browser(chromium, "--window-size=1000,1800", "--screenshot=" + png, url);
        assertTrue(shot.waitFor(60, TimeUnit.SECONDS), "chromium finished");
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1000, image.getWidth());
        assertEquals(1800, image.getHeight());
        long inked = 0;
        long colored = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r + g + b < 600) {
                    inked++;
                }
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
                    colored++; // the series' colors, not the grey of text and grid
                }
            }
        }
        assertTrue(inked > 5_000, "the page is not blank: " + inked + " dark samples");
        assertTrue(colored > 500, "colored chart lines were painted: " + colored + " samples");
    }
}
