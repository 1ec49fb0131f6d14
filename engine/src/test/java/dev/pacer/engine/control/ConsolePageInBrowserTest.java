package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Summary;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console page in a real browser (Debian's Chromium through the DevTools protocol) against a real
 * run: its charts fill from the stream, its controls change the run by keyboard and by click, each
 * answered with the console's line and recorded with the source {@code page} in the run's log and
 * summary, and changes made elsewhere are shown with who made them; a page opened late, or reloaded, draws
 * the run from its start; with a token the page refuses to show anything until it is given; a page of
 * another origin cannot steer the run.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsolePageInBrowserTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The focused element: its id, else its text. */
    static final String FOCUSED = "document.activeElement.id || document.activeElement.textContent.trim()";
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
            assertTrue(browser.eval("$('per-op').hidden").asBoolean(), "a plain op has no per-op charts");

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

            // the same console line from a plain HTTP client (curl) is the endpoint's, not the page's
            HttpResponse<String> curl = HTTP.send(HttpRequest.newBuilder(URI.create(page + "command"))
                    .POST(HttpRequest.BodyPublishers.ofString("threads 3")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(curl.body().contains("ok: threads 3 (http) at "), curl.body());

            browser.await("document.querySelectorAll('#changes li[data-source=page]').length == 4", WAIT,
                    "each change from the page is listed as the page's", SHOW);
            browser.await("document.querySelectorAll('#changes li[data-source=http]').length == 1", WAIT,
                    "the one from curl as http's", SHOW);
            assertEquals("threads 3 (http)", browser.eval("$('changes').querySelector('li[data-source=http]')"
                    + ".textContent").asText().replaceAll(" at .*", ""), "listed with who made it");
            browser.await("$('chart-rate').dataset.markers >= 5", WAIT, "each change is a marker", SHOW);

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
            assertTrue(browser.eval("$('report-download').hidden").asBoolean(),
                    "without a renderer (the CLI gives one) there is no page to download");
        }
        Summary summary = run.await(Duration.ofSeconds(30)).summary();
        List<String> fromPage = summary.changes().stream().filter(c -> c.source().equals("page"))
                .map(c -> c.kind().label() + " " + c.value()).toList();
        assertEquals(List.of("rate 800,0", "rate 810,0", "pause ", "resume ", "stop "), fromPage,
                "the summary's changes");
        List<String> logged = HlogReader.read(hlog).markers().stream().filter(m -> m.source().equals("page"))
                .map(m -> m.kind().label() + " " + m.value()).toList();
        assertEquals(fromPage, logged, "the log's changes");
        assertEquals(List.of("threads 3"), HlogReader.read(hlog).markers().stream()
                .filter(m -> m.source().equals("http")).map(m -> m.kind().label() + " " + m.value()).toList(),
                "the change from curl, logged as http's");
    }

    @Test
    void theRunIsSteeredByKeyboardAloneStrictnessAndStopIncluded() throws Exception {
        Path hlog = dir.resolve("keys.hlog");
        // the report page of the log, as the CLI's renderer would make it: here, the changes the log holds
        AtomicReference<String> rendered = new AtomicReference<>();
        LoadTest.Running run = LoadTest.rate(500).threads(2).op("noop").duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(200)).hlog(hlog).control("127.0.0.1:0", null)
                .reportPage(log -> {
                    rendered.set("<!doctype html><title>report of " + log.getFileName() + "</title><p>"
                            + HlogReader.read(log).markers().stream().map(m -> m.kind().label()).toList() + "</p>");
                    return rendered.get();
                }).start();
        try (Chromium browser = Chromium.start(dir, 1280, 1600)) {
            String page = "http://127.0.0.1:" + port(run) + "/";
            browser.navigate(page);
            browser.await("$('chart-rate').dataset.points >= 2 && $('strictness').value == '0'", WAIT,
                    "the page is live", SHOW);

            // Tab from the top of the page walks the controls in reading order
            List<String> order = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                browser.key("Tab", 9);
                order.add(browser.eval(FOCUSED).asText());
            }
            assertEquals(List.of("rate", "Set rate", "rate-slider", "strictness", "Set strictness", "threads",
                    "Set threads", "pause", "resume", "stop"), order, "the focus order");

            // strictness: back to its field, type over the value the run shows, Enter
            for (int i = 0; i < 6; i++) {
                browser.key("Tab", 9, Chromium.SHIFT);
            }
            assertEquals("strictness", browser.eval(FOCUSED).asText());
            browser.type("0.5");
            browser.key("Enter", 13);
            awaitAck(browser, "ok: strictness 0.5 (page) at ", "strictness set from the page", SHOW);
            assertEquals(0.5, run.facts().target().strictness(), 0.0, "the run's strictness");
            // set elsewhere, the field follows once it is not being edited
            browser.key("Tab", 9);
            HTTP.send(HttpRequest.newBuilder(URI.create(page + "strictness")).POST(HttpRequest.BodyPublishers
                    .ofString("1")).build(), HttpResponse.BodyHandlers.discarding());
            browser.await("$('strictness').value == '1'", WAIT, "the field shows a strictness set over HTTP", SHOW);

            // pause with Enter, resume with Space
            for (int i = 0; i < 3; i++) {
                browser.key("Tab", 9);
            }
            assertEquals("pause", browser.eval(FOCUSED).asText());
            browser.key("Enter", 13);
            awaitAck(browser, "ok: pause (page) at ", "pause by Enter", SHOW);
            assertTrue(run.facts().paused());
            browser.key("Tab", 9);
            browser.key(" ", 32);
            awaitAck(browser, "ok: resume (page) at ", "resume by Space", SHOW);
            assertFalse(run.facts().paused());

            // stop asks first, starting on Cancel; Escape cancels and gives the focus back to Stop
            browser.key("Tab", 9);
            browser.key("Enter", 13);
            assertFalse(browser.eval("$('confirm').hidden").asBoolean(), "Enter on Stop asks");
            assertEquals("stop-no", browser.eval(FOCUSED).asText(), "the question starts on Cancel");
            browser.key("Escape", 27);
            assertTrue(browser.eval("$('confirm').hidden").asBoolean(), "Escape cancels");
            assertEquals("stop", browser.eval(FOCUSED).asText());
            assertTrue(run.status().get("running").asBoolean(), "nothing stopped");
            browser.key(" ", 32);
            assertFalse(browser.eval("$('confirm').hidden").asBoolean(), "Space on Stop asks");
            browser.key(" ", 32);
            assertTrue(browser.eval("$('confirm').hidden").asBoolean(), "Space on Cancel cancels");
            browser.key("Enter", 13);
            browser.key("Tab", 9, Chromium.SHIFT);
            assertEquals("stop-yes", browser.eval(FOCUSED).asText(), "Shift+Tab from Cancel reaches Stop now");
            browser.key("Enter", 13);
            browser.await("!$('summary').hidden && document.activeElement === $('summary')", WAIT,
                    "the run stops and the focus lands on its summary", SHOW);

            // the endpoint has closed with the run; the page offers the report page it was sent, as a download
            Path downloads = dir.resolve("downloads");
            browser.allowDownloads(downloads);
            browser.key("Tab", 9);
            assertEquals("report-download", browser.eval(FOCUSED).asText(), "Tab from the summary reaches it");
            assertEquals("download keys.html", browser.eval("$('report-download').textContent").asText());
            browser.key("Enter", 13);
            Path file = downloads.resolve("keys.html");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!Files.exists(file) || !Files.readString(file).equals(rendered.get())) {
                assertTrue(System.nanoTime() < deadline, "the report page is downloaded as keys.html: "
                        + (Files.isDirectory(downloads) ? Files.list(downloads).toList() : "nothing"));
                Thread.sleep(50);
            }
            assertTrue(rendered.get().contains("[strictness, strictness, pause, resume, stop]"),
                    "made from the whole log, its end included: " + rendered.get());
        } finally {
            end(run);
        }
        assertEquals(List.of("strictness 0.5 page", "strictness 1 http", "pause  page", "resume  page", "stop  page"),
                HlogReader.read(hlog).markers().stream().filter(m -> m.kind() != ChangeKind.PHASE)
                        .map(m -> m.kind().label() + " " + m.value() + " " + m.source()).toList(),
                "the run's log: every change, each with who made it");
    }

    @Test
    void aPageOpenedLateOrReloadedDrawsTheWholeRunSoFar() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Running run = LoadTest.rate(300).op("noop").duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(100)).control("127.0.0.1:0", null).onInterval(intervals::add).start();
        try (Chromium browser = Chromium.start(dir, 1280, 1600)) {
            String page = "http://127.0.0.1:" + port(run) + "/";
            // before any page is open: intervals, and changes from the API and over HTTP
            awaitIntervals(intervals, 10);
            run.rate("400");
            HTTP.send(HttpRequest.newBuilder(URI.create(page + "rate")).POST(HttpRequest.BodyPublishers.ofString("500"))
                    .build(), HttpResponse.BodyHandlers.discarding());
            awaitIntervals(intervals, 30);

            browser.navigate(page);
            awaitEveryInterval(browser, intervals, "a page opened late draws every interval from the run's start");
            List<String> early = List.of("rate 400,0 (api)", "rate 500,0 (http)");
            assertEquals(early, changesListed(browser), "and lists the changes made before it opened");
            assertTrue(browser.eval("+$('chart-rate').dataset.markers").asInt() >= 2, "each a marker");

            browser.eval("(() => { const f = $('threads'); f.focus(); f.value = '2'; })()");
            browser.key("Enter", 13);
            awaitAck(browser, "ok: threads 2 (page) at ", "a change from the page", SHOW);
            browser.navigate(page);
            awaitEveryInterval(browser, intervals, "a reloaded page draws every interval again");
            browser.await("$('changes').children.length == 3", WAIT, "the reloaded page lists every change", SHOW);
            assertEquals(List.of("rate 400,0 (api)", "rate 500,0 (http)", "threads 2 (page)"),
                    changesListed(browser), "in order, each with who made it");
            assertTrue(browser.eval("+$('chart-rate').dataset.markers").asInt() >= 3, "each a marker");
        } finally {
            run.stop();
            run.await(Duration.ofSeconds(30));
        }
    }

    /**
     * Waits until the page draws as many intervals as the run had reported just before: a page that got only
     * what came after it opened stays behind by the intervals before, however long it is given.
     */
    private static void awaitEveryInterval(Chromium browser, List<IntervalReport> intervals, String what)
            throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (;;) {
            int reported = intervals.size();
            // right after a load or reload the chart may not be there yet: nothing drawn
            int drawn = browser.eval("+(($('chart-rate') || {dataset: {}}).dataset.points || 0)").asInt();
            if (drawn >= reported) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": the page draws " + drawn + " of " + reported + " intervals");
            }
            Thread.sleep(50);
        }
    }

    /** The page's list of changes, each as {@code rate 400,0 (api)}. */
    private static List<String> changesListed(Chromium browser) throws Exception {
        List<String> listed = new java.util.ArrayList<>();
        browser.eval("[...$('changes').children].map(li => li.textContent)")
                .forEach(t -> listed.add(t.asText().replaceAll(" at \\d+\\.\\d+s$", "")));
        return listed;
    }

    /** Two named ops by cycle, 3:1; every other payment declined; a payment in two steps. */
    static final class TwoOps implements Op, OpMix {
        static final Outcome DECLINED = Outcome.of("declined", true);

        @Override
        public List<String> opNames() {
            return List.of("browse", "pay");
        }

        @Override
        public int opOf(long cycle) {
            return cycle % 4 == 3 ? 1 : 0;
        }

        @Override
        public int stepsOf(int opIndex) {
            return opIndex == 1 ? 2 : 1;
        }

        @Override
        public Outcome run(long cycle) {
            return cycle % 8 == 7 ? DECLINED : null;
        }

        @Override
        public Outcome run(long cycle, Runnable stepEnded) {
            if (opOf(cycle) == 1) {
                stepEnded.run();
            }
            return run(cycle);
        }
    }

    @Test
    void aMixsPageDrawsEachOpsRateAndResponse() throws Exception {
        LoadTest.Running run = LoadTest.rate(400).op(new TwoOps()).duration(Duration.ofSeconds(90))
                .interval(Duration.ofMillis(200)).control("127.0.0.1:0", null).start();
        try (Chromium browser = Chromium.start(dir, 1280, 1600)) {
            browser.navigate("http://127.0.0.1:" + port(run) + "/");
            String show = SHOW + " + ' | per-op points: ' + $('chart-op-rate').dataset.points";
            browser.await("$('chart-op-rate').dataset.points >= 3", WAIT, "the per-op charts fill", show);
            assertFalse(browser.eval("$('per-op').hidden").asBoolean(), "shown for a mix");
            assertEquals("browse|pay", browser.eval("$('op-keys').dataset.ops").asText(), "a key per op");
            assertEquals("browsepay", browser.eval("$('op-keys').textContent").asText());
            for (String chart : List.of("op-rate", "op-response")) {
                assertTrue(browser.eval("+$('chart-" + chart + "').dataset.drawn").asInt() >= 6,
                        chart + " drew its two series: " + browser.eval("$('chart-" + chart + "').dataset.drawn"));
            }
            assertFalse(browser.eval("$('op-steps').hidden").asBoolean(), "a table of pay's steps");
            String steps = browser.eval("[...$('op-steps').tBodies[0].rows].map(r => [...r.cells].slice(0, 2)"
                    + ".map(c => c.textContent).join(' ')).join('|')").asText();
            assertEquals("pay 1|pay 2", steps, "a row per step of the op that has steps");
            assertTrue(browser.eval("$('op-steps').tBodies[0].rows[0].cells[3].textContent").asText()
                    .matches("[0-9.]+(ns|µs|ms|s)"), "its p99 is a duration");
        } finally {
            run.stop();
            run.await(Duration.ofSeconds(30));
        }
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

    /** Stops the run unless the page has, and waits for its end. */
    static void end(LoadTest.Running run) throws Exception {
        try {
            run.stop();
        } catch (IllegalStateException stoppedAlready) {
            // the page stopped it
        }
        run.await(Duration.ofSeconds(30));
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

    private static void awaitIntervals(List<IntervalReport> intervals, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (intervals.size() < count) {
            assertTrue(System.nanoTime() < deadline, "intervals go on");
            Thread.sleep(20);
        }
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
