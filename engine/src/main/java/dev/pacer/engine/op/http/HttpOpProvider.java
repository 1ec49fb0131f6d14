package dev.pacer.engine.op.http;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import javax.net.ssl.SSLException;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code --op http}: an HTTP request per op, asynchronous (see {@link HttpOp}). Options (the run
 * command's flags): {@code url} (required; {@code {cycle}} is replaced by the cycle number),
 * {@code method} (GET), {@code header} (repeatable {@code Name: value}), {@code body} (text, or
 * {@code @file}, at most 64 MiB), {@code connect-timeout} (5s), {@code request-timeout} (30s), {@code expect}
 * ({@code 2xx,3xx}: other status classes are errors), {@code http-version} ({@code 1.1}, or {@code 2}:
 * HTTP/2, prior knowledge (h2c) on http://, ALPN on https://), {@code connections} (HTTP/1.1: 64;
 * HTTP/2: 1), {@code io-threads} (half the cores, 1 to 4), {@code insecure} (trust any certificate).
 */
public final class HttpOpProvider implements OpProvider {

    static final int DEFAULT_CONNECTIONS = 64;
    static final int DEFAULT_H2_CONNECTIONS = 1;
    /** The longest body accepted (64 MiB): it is kept in memory, once. */
    static final int MAX_BODY = 64 << 20;
    /** Descriptors a run needs beside its connections: the warm-up's (2 per connection and a listener), files. */
    static final int RESERVED_DESCRIPTORS = 2 * HttpWarmUp.MAX_CONNECTIONS + 1 + 31;

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String description() {
        return "an HTTP request per op: url, method, header, body, expect, timeouts, connections (see: pacer run "
                + "--help)";
    }

    @Override
    public Op create(OpSpec spec) throws IOException {
        return create(spec, dev.pacer.engine.api.RunClock.system());
    }

    @Override
    public Op create(OpSpec spec, dev.pacer.engine.api.RunClock clock) throws IOException {
        if (!spec.argument().isEmpty()) {
            throw new SettingException("op", spec.toString(), "http takes no argument: its settings are ${url}, "
                    + "${method}, ...");
        }
        Duration connectTimeout = Durations.parsePositive(or(spec.option("connect-timeout"), "5s"), "connect-timeout");
        Duration requestTimeout = Durations.parsePositive(or(spec.option("request-timeout"), "30s"), "request-timeout");
        boolean h2 = switch (or(spec.option("http-version"), "1.1")) {
            case "1.1" -> false;
            case "2" -> true;
            default -> throw new SettingException("http-version", spec.option("http-version"), "expected 1.1 or 2");
        };
        int connections = positive(spec.option("connections"), h2 ? DEFAULT_H2_CONNECTIONS : DEFAULT_CONNECTIONS,
                "connections", 100_000);
        checkDescriptors(connections);
        int cores = Runtime.getRuntime().availableProcessors();
        int ioThreads = positive(spec.option("io-threads"), Math.max(1, Math.min(4, cores / 2)), "io-threads", 256);
        boolean insecure = spec.flag("insecure");
        HttpRequestTemplate template = new HttpRequestTemplate(spec.option("url"), or(spec.option("method"), "GET"),
                spec.optionValues("header"), body(spec.option("body")));
        HttpOutcomes outcomes = new HttpOutcomes(HttpOutcomes.parseExpect(spec.option("expect")));
        InetSocketAddress address = resolve(template);
        SslContext ssl = template.tls() ? ssl(insecure, h2) : null;
        long timeoutNanos = requestTimeout.toNanos();

        HttpTransport transport = new HttpTransport(ioThreads, connectTimeout, clock);
        try {
            int warmConnections = Math.min(connections, HttpWarmUp.MAX_CONNECTIONS);
            HttpWarmUp.SenderFactory factory = (t, a) -> h2
                    ? new H2Sender(transport, t, outcomes, a, null, warmConnections, timeoutNanos)
                    : new H1Pool(transport, t, outcomes, a, null, warmConnections, timeoutNanos);
            HttpSender sender = h2
                    ? new H2Sender(transport, template, outcomes, address, ssl, connections, timeoutNanos)
                    : new H1Pool(transport, template, outcomes, address, ssl, connections, timeoutNanos);
            return new HttpOp(transport, sender, template, new HttpWarmUp(transport, template, factory, h2));
        } catch (RuntimeException | Error e) {
            transport.close();
            throw e;
        }
    }

    /**
     * Refuses more connections than the process's open-files limit holds, up front (a run that hits the limit
     * fails its connects, or its event loops, midway). The JVM has already raised the soft limit to the hard
     * one (HotSpot's MaxFDLimit, on by default), so the hard limit is what counts. Each connection is one
     * descriptor; {@link #RESERVED_DESCRIPTORS} stay free for the warm-up (its connections and their server
     * ends, closed before the run), output files and the control endpoint.
     */
    private static void checkDescriptors(int connections) {
        if (!(ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os)) {
            return;
        }
        long max = os.getMaxFileDescriptorCount();
        long open = os.getOpenFileDescriptorCount();
        if (max <= 0 || open < 0) {
            return; // not known here
        }
        long fit = max - open - RESERVED_DESCRIPTORS;
        if (connections > fit) {
            long enough = (connections + open + RESERVED_DESCRIPTORS + 100) / 1024 * 1024 + 1024;
            throw new SettingException("connections", Integer.toString(connections),
                    "the open-files limit (ulimit -n) is " + max + ", " + open + " are open and " + RESERVED_DESCRIPTORS
                    + " are kept for the warm-up and files: at most " + Math.max(0, fit)
                    + " connections fit (raise the limit, e.g. ulimit -n " + enough + ")");
        }
    }

    private static InetSocketAddress resolve(HttpRequestTemplate template) {
        try {
            return new InetSocketAddress(InetAddress.getByName(template.host()), template.port());
        } catch (UnknownHostException e) {
            throw new SettingException("url", template.url(), "cannot resolve the host " + template.host());
        }
    }

    /** The client's TLS: the JDK's trust store, or any certificate when {@code insecure}; ALPN h2 when {@code h2}. */
    static SslContext ssl(boolean insecure, boolean h2) throws SSLException {
        SslContextBuilder b = SslContextBuilder.forClient();
        if (insecure) {
            b.trustManager(InsecureTrustManagerFactory.INSTANCE);
        }
        if (h2) {
            H2Sender.alpn(b);
        }
        return b.build();
    }

    private static int positive(String text, int fallback, String setting, int max) {
        if (text == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new SettingException(setting, text, "expected a whole number from 1 to " + max);
    }

    /**
     * The body: the text, or the file's bytes (at most {@link #MAX_BODY}, read into the one buffer every
     * connection shares; a longer file, or an endless one such as {@code /dev/zero}, is refused unread).
     */
    private static ByteBuf body(String body) {
        if (body == null) {
            return null;
        }
        if (!body.startsWith("@")) {
            return HttpRequestTemplate.shared(body.getBytes(StandardCharsets.UTF_8));
        }
        Path file = Path.of(body.substring(1));
        if (body.length() == 1 || !Files.isReadable(file) || Files.isDirectory(file)) {
            String what = body.length() == 1 ? "a file with no name" : file.toString();
            throw new SettingException("body", body, "cannot read " + what);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            throw new SettingException("body", body, "cannot read " + file + ": " + e.getMessage());
        }
        if (bytes.length > MAX_BODY) {
            throw new SettingException("body", body, "longer than " + (MAX_BODY >> 20)
                    + " MiB, the most a body may be (one copy of it is kept in memory, shared by the connections)");
        }
        return HttpRequestTemplate.shared(bytes);
    }

    private static String or(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
