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

    /**
     * Refuses a bearer token that no client can send as it is: blank, with a line break, tab or other control
     * character (an HTTP header cannot carry one; a token read from a file with its last newline is the usual
     * case), or with a space at either end (dropped from a header). The token itself is not shown.
     *
     * @param setting where it came from ({@code control-token}, {@code PACER_CONTROL_TOKEN}); null token: none
     * @throws SettingException naming the setting and what is wrong
     */
    public static void checkToken(String setting, String token) {
        if (token == null) {
            return;
        }
        if (token.isBlank()) {
            throw new SettingException(setting, "", "must not be blank");
        }
        if (token.chars().anyMatch(Character::isISOControl)) {
            throw new SettingException(setting, "(not shown)", "holds a line break or another control character (a"
                    + " file's last newline?), which no Authorization header can carry");
        }
        if (!token.equals(token.strip())) {
            throw new SettingException(setting, "(not shown)", "starts or ends with a space, which an Authorization"
                    + " header drops");
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
