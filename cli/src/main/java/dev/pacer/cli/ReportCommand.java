package dev.pacer.cli;

import dev.pacer.engine.api.ThresholdResult;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.RunLogs;
import dev.pacer.report.Report;
import dev.pacer.report.ReportCsv;
import dev.pacer.report.ReportHtml;
import dev.pacer.report.ReportJson;
import dev.pacer.report.ReportText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code pacer report}: reads, merges and plots histogram logs.
 *
 * <p>Exit codes: 0 the logs were read whole; 1 some lines could not be read (each is named as
 * {@code file:line}; everything readable is still reported); 2 bad usage, no readable interval, or a log refused
 * (two logs in one file, an interval's histograms without its note: named as {@code file:line}).
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Percentile tables, merges and plots of HdrHistogram interval logs (pacer run --hlog).", "",
                "Examples:",
                "  pacer report run.hlog                        percentile tables per tag",
                "  pacer report a.hlog b.hlog --merge           shards of one test, merged into one view",
                "  pacer report run.hlog --from 30s --to 90s    a window, e.g. skipping warm-up",
                "  pacer report run.hlog --plot run.html        a self-contained page with the charts",
                "  pacer report before.hlog --vs after.hlog --plot vs.html   two runs overlaid, with their differences",
                "  pacer report run.hlog --csv | --json",
                "  pacer report run.hlog --csv --intervals      a CSV row per interval: ops, errors, p50/p90/p99/max "
                        + "per tag", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:read whole (and every --threshold passed)",
                "1:some lines unreadable (named; the rest is reported), a --threshold failed, or the --plot page"
                        + " could not be written",
                "2:bad usage, nothing readable, or a log refused (named as file:line)"})
final class ReportCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "LOG.hlog", description = "One or more interval histogram logs.")
    List<Path> logs = new ArrayList<>();

    @Option(names = "--merge", description = "Merge the logs into one view, aligned by their start times (adds "
            + "histograms).")
    boolean merge;

    @Option(names = "--from", paramLabel = "DURATION", description = "Window start, from the log's start (e.g. 30s).")
    String from;

    @Option(names = "--to", paramLabel = "DURATION", description = "Window end, from the log's start (e.g. 90s).")
    String to;

    @Option(names = "--plot", paramLabel = "FILE.html", description = "Write a self-contained HTML page with the "
            + "charts.")
    Path plot;

    @Option(names = "--vs", paramLabel = "B.hlog", description = "Compare with another run's log: a table of the "
            + "differences"
            + " (rate, errors, p50/p99/max per tag); with --plot, both runs overlaid on one page.")
    Path vs;

    @Option(names = "--csv", description = "Print the percentile table as CSV (nanoseconds); with --intervals, a row "
            + "per interval.")
    boolean csv;

    @Option(names = "--intervals", description = "List every interval: target, achieved, errors by type, "
            + "p50/p90/p99/max per tag"
            + " (text, or CSV rows with --csv). Without it, text lists the intervals that had errors.")
    boolean intervals;

    @Option(names = "--threshold", paramLabel = "GATE",
            description = {"Judge the report (with --merge: the merged shards) by the gates 'pacer run' takes, e.g.",
                    "'response.p99<20ms', 'achieved>=0.99*target', 'errors<0.1%%'; any failed gate exits 1."})
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--json", description = "Print the report as JSON (nanoseconds).")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (csv && json) {
            throw new IllegalArgumentException("give --csv or --json, not both");
        }
        if (logs.size() > 1 && !merge && (csv || json || plot != null)) {
            throw new IllegalArgumentException("several logs make one table or page only with --merge (or report them "
                    + "one by one)");
        }
        if (vs != null && (csv || json || intervals)) {
            throw new IllegalArgumentException("--vs compares in text and on a page (--plot); give --csv, --json or "
                    + "--intervals without it");
        }
        if (vs != null && logs.size() > 1 && !merge) {
            throw new IllegalArgumentException("--vs compares one log (or several with --merge) with " + vs);
        }
        if (plot != null) {
            // before reading: a page that cannot be written is said at once, and a page over a log would destroy it
            java.util.Map<Path, String> read = new java.util.LinkedHashMap<>();
            for (Path log : logs) {
                read.putIfAbsent(log, "a log this report reads");
            }
            if (vs != null) {
                read.putIfAbsent(vs, "the --vs log");
            }
            OutputFiles.check(java.util.Map.of("--plot", plot), read);
        }
        Double fromSec = from == null ? null : Durations.parse(from, "from").toNanos() / 1e9;
        Double toSec = to == null ? null : Durations.parse(to, "to").toNanos() / 1e9;
        if (fromSec != null && toSec != null && toSec <= fromSec) {
            throw new IllegalArgumentException("invalid --to '" + to + "': must be after --from '" + from + "'");
        }
        List<Threshold> gates = new ArrayList<>();
        for (String t : thresholds) {
            gates.add(Threshold.parse(t)); // a SettingException naming --threshold and the gate
        }
        if (!gates.isEmpty() && (vs != null || logs.size() > 1 && !merge)) {
            throw new IllegalArgumentException("--threshold judges one view: one log, or several with --merge");
        }
        for (Path log : logs) {
            RunLogs.check(log); // every log can be read before anything is printed
        }
        if (vs != null) {
            RunLogs.check(vs);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (vs != null) {
            return compare(fromSec, toSec, out, err);
        }
        List<List<Path>> views = merge ? List.of(logs) : logs.stream().map(List::of).toList();
        int unreadable = 0;
        int failedGates = 0;
        int unwritten = 0;
        for (List<Path> view : views) {
            Report report = Report.of(view, fromSec, toSec);
            for (String warning : report.warnings()) {
                err.println("pacer report: " + SettingException.visible(warning));
            }
            unreadable += report.warnings().size();
            if (csv) {
                out.print(intervals ? ReportCsv.intervals(report) : ReportCsv.format(report));
            } else if (json) {
                out.print(ReportJson.format(report));
            } else {
                out.print(ReportText.format(report, intervals));
                if (views.size() > 1) {
                    out.println();
                }
            }
            if (plot != null && !writePlot(() -> ReportHtml.write(report, plot), err)) {
                unwritten++;
            }
            if (!gates.isEmpty()) {
                RunFigures figures = report.figures();
                for (Threshold g : gates) {
                    ThresholdResult r = g.evaluate(figures);
                    (json || csv ? err : out).println((r.passed() ? "PASS  " : "FAIL  ") + r.expression() + "  (actual "
                            + r.actual() + ")");
                    failedGates += r.passed() ? 0 : 1;
                }
            }
        }
        if (unreadable > 0) {
            err.println("pacer report: " + unreadable + " unreadable line" + (unreadable > 1 ? "s" : "")
                    + " skipped; everything readable is reported above");
        }
        out.flush();
        err.flush();
        return unreadable > 0 || failedGates > 0 || unwritten > 0 ? PacerCommand.EXIT_FAILED : PacerCommand.EXIT_OK;
    }

    /** {@code --vs}: A (the logs) against B, in text and, with --plot, on one page. */
    private int compare(Double fromSec, Double toSec, PrintWriter out, PrintWriter err) throws java.io.IOException {
        Report a = Report.of(logs, fromSec, toSec);
        Report b = Report.of(List.of(vs), fromSec, toSec);
        int unreadable = a.warnings().size() + b.warnings().size();
        for (Report r : List.of(a, b)) {
            r.warnings().forEach(w -> err.println("pacer report: " + SettingException.visible(w)));
        }
        out.print(ReportText.format(a));
        out.println();
        out.print(ReportText.format(b));
        out.println();
        out.print(ReportText.differences(a, b));
        boolean written = plot == null || writePlot(() -> ReportHtml.write(List.of(a, b), null, plot), err);
        if (unreadable > 0) {
            err.println("pacer report: " + unreadable + " unreadable line" + (unreadable > 1 ? "s" : "")
                    + " skipped; everything readable is reported above");
        }
        out.flush();
        err.flush();
        return unreadable > 0 || !written ? PacerCommand.EXIT_FAILED : PacerCommand.EXIT_OK;
    }

    /** A page write. */
    private interface PageWrite {
        void write() throws java.io.IOException;
    }

    /** Writes the page; false, and one line saying why, when it could not be (nothing half-written is left). */
    private boolean writePlot(PageWrite write, PrintWriter err) {
        try {
            write.write();
            err.println("pacer report: wrote " + plot);
            return true;
        } catch (java.io.IOException e) {
            err.println("pacer report: could not write " + plot + ": " + OutputFiles.why(e));
            return false;
        }
    }
}
