package dev.pacer.engine.api;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the HTTP control endpoint listens, as users write it: {@code 7070} (loopback),
 * {@code 127.0.0.1:7070}, {@code 0.0.0.0:7070}, {@code [::1]:7070}. Port 0 picks a free port.
 *
 * @param host    the address to bind
 * @param port    the port, 0..65535
 * @param text    what the user wrote
 */
public record ControlEndpoint(InetAddress host, int port, String text) {

    private static final Pattern FORM = Pattern.compile("(?:(\\[[^\\]]+\\]|[^:\\[\\]]+):)?(\\d{1,5})");

    /** Parses {@code [HOST:]PORT} for the control endpoint; throws a {@link SettingException} naming it. */
    public static ControlEndpoint parse(String text) {
        return parse(text, "control");
    }

    /** Parses {@code [HOST:]PORT} for {@code setting} (e.g. {@code metrics}). */
    public static ControlEndpoint parse(String text, String setting) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new SettingException(setting, text, "expected PORT or HOST:PORT, e.g. 7070 or 127.0.0.1:7070");
        }
        int port = Integer.parseInt(m.group(2));
        if (port > 65_535) {
            throw new SettingException(setting, text, "port " + port + " is over 65535");
        }
        String host = m.group(1) == null ? "127.0.0.1" : m.group(1).replaceAll("^\\[|\\]$", "");
        try {
            return new ControlEndpoint(InetAddress.getByName(host), port, text);
        } catch (UnknownHostException e) {
            throw new SettingException(setting, text, "unknown host '" + host + "'");
        }
    }

    /** True when only this machine can connect. */
    public boolean isLoopback() {
        return host.isLoopbackAddress();
    }

    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }
}
