package dev.pacer.engine.api;

/** The three latencies recorded per op; {@link #tag()} is also the histogram's tag in .hlog files. */
public enum Metric {
    /** scheduled → start: how late the op started. */
    WAIT("wait"),
    /** start → end: how long the op took. */
    SERVICE("service"),
    /** scheduled → end = wait + service: the coordinated-omission-corrected latency. */
    RESPONSE("response");

    private final String tag;

    Metric(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }

    /** The metric with this tag, or null. */
    public static Metric ofTag(String tag) {
        for (Metric m : values()) {
            if (m.tag.equals(tag)) {
                return m;
            }
        }
        return null;
    }
}
