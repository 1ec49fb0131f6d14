package dev.pacer.engine.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * One step's request as a cycle sends it: method, path and query, headers and body. Allocated per request (the
 * JDK client the op sends with takes strings and arrays).
 *
 * @param headers name, value, name, value, ...
 */
record Rendered(String method, String target, List<String> headers, byte[] body) {

    /** Renders a step for a cycle; {@code scratch} is reused. */
    static Rendered of(Workload.Step step, CycleState st, Bytes scratch) {
        String target = render(step.target(), st, scratch);
        List<String> headers = new ArrayList<>(step.headers().size() * 2 + 2);
        boolean contentType = false;
        for (Workload.Header h : step.headers()) {
            headers.add(h.name());
            headers.add(render(h.value(), st, scratch));
            contentType |= h.name().equalsIgnoreCase("content-type");
        }
        if (step.contentType() != null && !contentType) {
            headers.add("Content-Type");
            headers.add(step.contentType());
        }
        byte[] body = null;
        if (step.body() != null) {
            step.body().render(st, scratch.clear());
            body = scratch.toArray();
        }
        return new Rendered(step.method(), target, headers, body);
    }

    private static String render(Template t, CycleState st, Bytes scratch) {
        t.render(st, scratch.clear());
        return scratch.toString();
    }

    /** The request as HTTP/1.1 text (for {@code pacer show}). */
    String text(String authority) {
        StringBuilder b = new StringBuilder();
        b.append(method).append(' ').append(target).append(" HTTP/1.1\n").append("Host: ").append(authority).append('\n');
        for (int i = 0; i < headers.size(); i += 2) {
            b.append(headers.get(i)).append(": ").append(headers.get(i + 1)).append('\n');
        }
        if (body != null) {
            b.append("Content-Length: ").append(body.length).append("\n\n")
                    .append(new String(body, java.nio.charset.StandardCharsets.UTF_8)).append('\n');
        }
        return b.toString();
    }
}
