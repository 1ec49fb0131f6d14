package dev.pacer.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart rendered as inline SVG: axes with ticks, one path per series, a legend, and
 * vertical markers. No script, no external resources: the page it is put in opens offline.
 */
final class SvgChart {

    static final int WIDTH = 920;
    static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 44;
    private static final int TOP = 34;
    private static final int BOTTOM = 44;

    /** A tick: its position on the axis and its label. */
    record Tick(double at, String label) {
    }

    private record Series(String name, String color, double[] xs, double[] ys) {
    }

    private record Mark(double x, String label) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private double xMin = Double.NaN;
    private double xMax = Double.NaN;
    private double dataXMin = Double.POSITIVE_INFINITY;
    private double dataXMax = Double.NEGATIVE_INFINITY;
    private double yMax = 0;
    private List<Tick> xTicks;

    SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    SvgChart series(String name, String color, double[] xs, double[] ys) {
        series.add(new Series(name, color, xs, ys));
        for (int i = 0; i < xs.length; i++) {
            dataXMin = Math.min(dataXMin, xs[i]);
            dataXMax = Math.max(dataXMax, xs[i]);
            yMax = Math.max(yMax, ys[i]);
        }
        return this;
    }

    /** Fixed x range and ticks (e.g. the percentile axis); otherwise both come from the data. */
    SvgChart xAxis(double min, double max, List<Tick> ticks) {
        xMin = min;
        xMax = max;
        xTicks = ticks;
        return this;
    }

    /** Fixed x range, ticks from the range (e.g. a time window wider than the data's points). */
    SvgChart xRange(double min, double max) {
        xMin = min;
        xMax = max;
        return this;
    }

    SvgChart marker(double x, String label) {
        marks.add(new Mark(x, label));
        return this;
    }

    String render() {
        if (Double.isNaN(xMin)) {
            xMin = dataXMin;
            xMax = dataXMax;
        }
        if (!(xMax > xMin)) {
            xMax = xMin + 1;
        }
        double yTop = niceCeil(yMax <= 0 ? 1 : yMax * 1.05);
        StringBuilder b = new StringBuilder(8192);
        b.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        b.append(String.format(Locale.ROOT, "<text class=\"title\" x=\"%d\" y=\"20\">%s</text>%n", LEFT, esc(title)));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        b.append(String.format(Locale.ROOT, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>%n", LEFT, TOP, plotW, plotH));
        for (Tick t : yTicks(yTop)) {
            double y = py(t.at(), yTop);
            b.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                    + "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y, LEFT + plotW, y, LEFT - 6, y + 4, esc(t.label())));
        }
        for (Tick t : xTicks != null ? xTicks : linearTicks(xMin, xMax)) {
            double x = px(t.at());
            b.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                    + "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, TOP, x, TOP + plotH, x, TOP + plotH + 16, esc(t.label())));
        }
        b.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 6, esc(xLabel)));
        b.append(String.format(Locale.ROOT, "<text class=\"axis\" transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
                TOP + plotH / 2, esc(yLabel)));
        for (Mark m : marks) {
            double x = px(m.x());
            b.append(String.format(Locale.ROOT, "<line class=\"marker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                    + "<text class=\"markerLabel\" transform=\"translate(%.1f,%d) rotate(90)\">%s</text>%n",
                    x, TOP, x, TOP + plotH, x + 3, TOP + 4, esc(m.label())));
        }
        int legendX = LEFT + plotW;
        for (int s = series.size() - 1; s >= 0; s--) {
            Series se = series.get(s);
            StringBuilder d = new StringBuilder();
            for (int i = 0; i < se.xs().length; i++) {
                d.append(i == 0 ? 'M' : 'L').append(String.format(Locale.ROOT, "%.1f,%.1f ", px(se.xs()[i]), py(se.ys()[i], yTop)));
            }
            b.append(String.format(Locale.ROOT, "<path class=\"series\" d=\"%s\" stroke=\"%s\"/>%n", d.toString().strip(), se.color()));
            legendX -= 8 + 7 * se.name().length() + 18;
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"12\" width=\"14\" height=\"4\" fill=\"%s\"/><text class=\"legend\" x=\"%d\" y=\"18\">%s</text>%n",
                    legendX, se.color(), legendX + 18, esc(se.name())));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private double px(double x) {
        return LEFT + (x - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT);
    }

    private double py(double y, double yTop) {
        return TOP + (1 - Math.min(y, yTop) / yTop) * (HEIGHT - TOP - BOTTOM);
    }

    private static List<Tick> yTicks(double top) {
        List<Tick> ticks = new ArrayList<>();
        double step = top / 5;
        for (int i = 0; i <= 5; i++) {
            ticks.add(new Tick(i * step, number(i * step)));
        }
        return ticks;
    }

    private static List<Tick> linearTicks(double min, double max) {
        double step = niceCeil((max - min) / 8);
        List<Tick> ticks = new ArrayList<>();
        for (double v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) {
            ticks.add(new Tick(v, number(v)));
        }
        return ticks;
    }

    /** The smallest of 1, 2, 2.5, 5 × 10^k at or above v. */
    static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v - 1e-12) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
