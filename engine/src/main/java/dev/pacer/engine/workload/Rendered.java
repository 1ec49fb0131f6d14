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

    /**
     * Writes a step's whole HTTP/1.1 request for a cycle into {@code out} (cleared first), with no string per
     * request: the templates write straight into the bytes. {@code body} is scratch space.
     *
     * @param head the request's fixed lines after the request line ({@code Host}, {@code User-Agent}), CRLF-ended
     */
    static void writeHttp1(Workload.Step step, CycleState st, byte[] head, Bytes out, Bytes body) {
        out.clear();
        out.appendUtf8(step.method()).append((byte) ' ');
        step.target().render(st, out);
        out.append(HTTP11).append(head);
        boolean contentType = false;
        for (Workload.Header h : step.headers()) {
            out.appendUtf8(h.name()).append((byte) ':').append((byte) ' ');
            h.value().render(st, out);
            out.append((byte) '\r').append((byte) '\n');
            contentType |= h.name().equalsIgnoreCase("content-type");
        }
        if (step.contentType() != null && !contentType) {
            out.appendUtf8("Content-Type: ").appendUtf8(step.contentType()).append((byte) '\r').append((byte) '\n');
        }
        if (step.body() != null) {
            step.body().render(st, body.clear());
            out.append(CONTENT_LENGTH).append(body.length).append((byte) '\r').append((byte) '\n');
            out.append((byte) '\r').append((byte) '\n').append(body.array, 0, body.length);
        } else {
            if (step.method().equals("POST") || step.method().equals("PUT") || step.method().equals("PATCH")) {
                out.append(CONTENT_LENGTH).append((byte) '0').append((byte) '\r').append((byte) '\n');
            }
            out.append((byte) '\r').append((byte) '\n');
        }
    }

    private static final byte[] HTTP11 = " HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH =
            "Content-Length: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
}
