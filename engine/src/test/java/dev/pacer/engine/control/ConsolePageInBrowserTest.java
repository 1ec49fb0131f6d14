package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.result.IntervalReport;
import dev.pacer.engine.result.Summary;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console page in a real browser (Debian's Chromium through the DevTools protocol) against a real
 * run: its charts fill from the stream, its controls change the run by keyboard and by click, each
 * answered with the console's line and recorded with the source {@code page} in the run's log and
 * summary; with a token the page refuses to show anything until it is given; a page of another origin
 * cannot steer the run.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsolePageInBrowserTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final String SHOW = "$('conn').textContent + ' | ack: ' + $('ack').textContent + ' | points: '"
            + " + $('chart-rate').dataset.points";

    @TempDir
    Path dir;

    @Test
    void thePageDrawsTheRunAndItsControlsChangeItRecordedAsPage() throws Exception {
        Path hlog = dir.resolve("run.hlog");
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        List<Change> changes = new CopyOnWriteArrayList<>();
        LoadTest.Running run = LoadTest.rate(500).threads(2).op("noop").duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(200)).hlog(hlog).control("127.0.0.1:0", null)
                .onInterval(intervals::add).onChange(changes::add).start();
        try (Chromium browser = Chromium.start(dir, 1280, 1600)) {
            String page = "http://127.0.0.1:" + port(run) + "/";
            browser.navigate(page);
            browser.await("$('chart-rate').dataset.points >= 3", WAIT, "the charts fill", SHOW);
            int before = browser.eval("+$('chart-rate').dataset.points").asInt();
            browser.await("$('chart-rate').dataset.points > " + (before + 2), WAIT,
                    "the charts go on filling, live", SHOW);
            for (String chart : List.of("rate", "wait", "response", "errors", "threads")) {
                assertTrue(browser.eval("+$('chart-" + chart + "').dataset.drawn").asInt() >= 3,
                        chart + " drew its points");
            }
            assertEquals("500/s", browser.eval("$('v-target').textContent").asText());

            // the field, by keyboard: focus, type, Enter
            browser.eval("(() => { const f = $('rate'); f.focus(); f.select(); })()");
            browser.type("800");
            browser.key("Enter", 13);
            awaitAck(browser, "ok: rate 800,0 (page) at ", "the field's rate is acknowledged like the console's", SHOW);
            Change set = lastChange(changes, ChangeKind.RATE);
            assertEquals("800,0", set.value());
            assertEquals("page", set.source());
            // within one interval the run's intervals ask for the new rate: the first cut after the change
            awaitInterval(intervals, set.elapsedSec() + 0.2 + 0.2);
            IntervalReport next = intervals.stream().filter(r -> r.elapsedSec() > set.elapsedSec()).findFirst()
                    .orElseThrow();
            assertEquals(800, next.target().opsPerSecond(), 0.0, "the interval after the change runs at the new rate");

            // the slider, by keyboard: its range follows the rate (0 .. 2x), an arrow key moves it one step
            browser.await("$('rate-slider').max == '1600'", WAIT, "the slider spans 0..2x the rate", SHOW);
            browser.eval("$('rate-slider').focus()");
            browser.key("ArrowRight", 39);
            awaitAck(browser, "ok: rate 810,0 (page) at ", "the slider's step is acknowledged", SHOW);
            assertEquals("810", browser.eval("$('rate').value").asText(), "the field follows the slider");

            browser.eval("$('pause').click()");
            awaitAck(browser, "ok: pause (page) at ", "pause", SHOW);
            assertTrue(run.facts().paused(), "the run is paused");
            browser.eval("$('resume').click()");
            awaitAck(browser, "ok: resume (page) at ", "resume", SHOW);
            assertFalse(run.facts().paused(), "the run goes on");

            // a refusal reads as the console's
            browser.eval("(() => { const f = $('threads'); f.focus(); f.value = '0'; })()");
            browser.key("Enter", 13);
            awaitAck(browser, "error: ", "a refusal", SHOW);
            String refusal = browser.eval("$('ack').textContent").asText();
            assertEquals(run.execute("threads 0"), refusal, "the console's own refusal");

            browser.await("document.querySelectorAll('#changes li[data-source=page]').length == 4", WAIT,
                    "each change is listed with its source", SHOW);
            browser.await("$('chart-rate').dataset.markers >= 4", WAIT, "each change is a marker", SHOW);

            // from a phone's width to a wide screen: nothing runs off the side, every chart is drawn
            for (int width : new int[] {360, 768, 1920}) {
                browser.emulate(width, 1000, "light");
                browser.await("innerWidth == " + width + " && $('chart-threads').querySelector('canvas')"
                        + ".width == Math.round($('chart-threads').querySelector('canvas').clientWidth"
                        + " * devicePixelRatio)", WAIT, "the charts are redrawn at " + width + " px", SHOW);
                assertTrue(browser.eval("document.documentElement.scrollWidth <= innerWidth").asBoolean(),
                        "no horizontal scrolling at " + width + " px");
                assertTrue(browser.eval("[...document.querySelectorAll('button, input')].filter(e => e.offsetParent)"
                        + ".every(e => e.getBoundingClientRect().right <= innerWidth)").asBoolean(),
                        "every control within the screen at " + width + " px");
            }
            browser.emulate(1280, 1600, "dark");
            assertEquals("rgb(17, 21, 28)", browser.eval("getComputedStyle(document.body).backgroundColor").asText(),
                    "the dark color scheme");
            assertEquals("rgb(230, 233, 239)", browser.eval("getComputedStyle(document.body).color").asText());

            // stop asks first
            browser.eval("$('stop').click()");
            assertFalse(browser.eval("$('confirm').hidden").asBoolean(), "stopping asks for a confirmation");
            browser.eval("$('stop-yes').click()");
            browser.await("!$('summary').hidden", WAIT, "the page shows the summary at the end", SHOW);
            String summaryText = browser.eval("$('summary-text').textContent").asText();
            assertTrue(summaryText.contains("stop (page)") || summaryText.contains("page"), summaryText);
            assertEquals("pacer report " + hlog + " --plot " + dir.resolve("run.html"),
                    browser.eval("$('report-command').textContent").asText(),
                    "the page says how to make the report of the run's log");
        }
        Summary summary = run.await(Duration.ofSeconds(30)).summary();
        List<String> fromPage = summary.changes().stream().filter(c -> c.source().equals("page"))
                .map(c -> c.kind().label() + " " + c.value()).toList();
        assertEquals(List.of("rate 800,0", "rate 810,0", "pause ", "resume ", "stop "), fromPage,
                "the summary's changes");
        List<String> logged = HlogReader.read(hlog).markers().stream().filter(m -> m.source().equals("page"))
                .map(m -> m.kind().label() + " " + m.value()).toList();
        assertEquals(fromPage, logged, "the log's changes");
    }

    @Test
    void withATokenThePageShowsNothingUntilItIsGiven() throws Exception {
        String token = "t0ken-" + System.nanoTime();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LoadTest.Running run = LoadTest.rate(200).op("noop").duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(200)).control("0.0.0.0:0", token).announce(true)
                .output(new PrintStream(OutputStream.nullOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .start();
        try (Chromium browser = Chromium.start(dir, 800, 1200)) {
            browser.navigate("http://127.0.0.1:" + port(run) + "/");
            browser.await("!$('login').hidden", WAIT, "the page asks for the token", SHOW);
            assertTrue(browser.eval("$('app').hidden").asBoolean(), "nothing of the run is shown");
            assertEquals(401, browser.eval("fetch('events').then(r => r.status)").asInt(),
                    "the stream needs the token");
            assertEquals(401, browser.eval("fetch('command', {method: 'POST', body: 'pause'})"
                    + ".then(r => r.status)").asInt(),
                    "a control needs the token");
            assertFalse(run.facts().paused());

            browser.eval("$('token').focus()");
            browser.type("wrong");
            browser.key("Enter", 13);
            browser.await("$('login-error').textContent.includes('refused')", WAIT,
                    "a wrong token is refused", SHOW);

            browser.eval("$('token').focus()");
            browser.type(token);
            browser.key("Enter", 13);
            browser.await("$('chart-rate').dataset.points >= 3", WAIT, "with the token, the charts fill", SHOW);
            browser.eval("$('pause').click()");
            awaitAck(browser, "ok: pause (page)", "pause", SHOW);
            assertTrue(run.facts().paused());
            assertFalse(browser.eval("location.href").asText().contains(token), "no token in the URL");
            assertEquals(token, browser.eval("sessionStorage.getItem('pacer-token')").asText(), "kept for the tab");
        } finally {
            run.stop();
            run.await(Duration.ofSeconds(30));
        }
        assertFalse(err.toString(StandardCharsets.UTF_8).contains(token), "no token in the run's output");
    }

    @Test
    void aPageOfAnotherOriginCannotSteerTheRun() throws Exception {
        LoadTest.Running run = LoadTest.rate(200).op("noop").duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(200)).control("127.0.0.1:0", null).start();
        int port = port(run);
        // another site's page: a form posts across origins without asking (no CORS preflight), here the classic
        // text/plain forgery of a JSON body, {"rate": "5", "x": "="}; and a no-cors fetch of a console line
        String evil = """
                <!doctype html><iframe name="sink"></iframe>
                <form id="f" method="POST" action="http://127.0.0.1:PORT/rate" enctype="text/plain" target="sink">
                <input name='{"rate": "5", "x": "' value='"}'></form>
                <script>
                window.posted = new Promise(done => document.querySelector('iframe').onload = () => done(true));
                document.getElementById('f').submit();
                window.fetched = fetch('http://127.0.0.1:PORT/command', {method: 'POST', mode: 'no-cors',
                    headers: {'Content-Type': 'text/plain'}, body: 'threads 7'})
                    .then(r => r.type, e => 'blocked: ' + e);
                </script>""".replace("PORT", Integer.toString(port));
        HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/", ex -> {
            byte[] page = evil.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, page.length);
            try (ex; var out = ex.getResponseBody()) {
                out.write(page);
            }
        });
        site.start();
        // with the browser's own guard of local addresses off (older browsers, other browsers do not have it):
        // the endpoint's check is what refuses
        try (Chromium browser = Chromium.start(dir, 800, 800, "--disable-features=LocalNetworkAccessChecks,"
                + "PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults")) {
            browser.navigate("http://localhost:" + site.getAddress().getPort() + "/");
            browser.await("window.fetched", WAIT, "the other site's page loaded", "document.title");
            assertEquals("opaque", browser.eval("window.fetched").asText(), "the browser sent the fetch");
            assertTrue(browser.eval("window.posted").asBoolean(), "the browser posted the form");
            String answer = browser.eval("fetch('http://127.0.0.1:" + port + "/status',"
                    + " {method: 'POST', mode: 'no-cors'}).then(r => r.type, e => 'blocked')").asText();
            assertEquals("opaque", answer);
        } finally {
            site.stop(0);
        }
        assertEquals(1, run.facts().threads(), "the forged 'threads 7' was refused");
        assertEquals(200, run.facts().target().opsPerSecond(), 0.0, "the forged rate was refused");
        run.stop();
        Summary s = run.await(Duration.ofSeconds(30)).summary();
        assertEquals(List.of("stop (api)"), s.changes().stream().filter(c -> c.kind() != ChangeKind.PHASE)
                .map(c -> c.kind().label() + " (" + c.source() + ")").toList(),
                "the cross-origin posts changed nothing");
    }

    /** Waits for the page's acknowledgement line to start with {@code prefix}. */
    static void awaitAck(Chromium browser, String prefix, String what, String show) throws Exception {
        browser.await("$('ack').textContent.startsWith('" + prefix + "')", WAIT, what, show);
    }

    /** The control endpoint's port, once the run has opened it. */
    static int port(LoadTest.Running run) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (run.controlAddress() == null) {
            assertTrue(System.nanoTime() < deadline, "the control endpoint opens");
            Thread.sleep(10);
        }
        return run.controlAddress().getPort();
    }

    private static void awaitInterval(List<IntervalReport> intervals, double elapsedSec) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (intervals.isEmpty() || intervals.get(intervals.size() - 1).elapsedSec() < elapsedSec) {
            assertTrue(System.nanoTime() < deadline, "intervals go on");
            Thread.sleep(20);
        }
    }

    private static Change lastChange(List<Change> changes, ChangeKind kind) {
        for (int i = changes.size() - 1; i >= 0; i--) {
            if (changes.get(i).kind() == kind) {
                return changes.get(i);
            }
        }
        throw new AssertionError("no " + kind + " change");
    }
}
