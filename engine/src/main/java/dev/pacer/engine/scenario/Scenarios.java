package dev.pacer.engine.scenario;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;

import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The built-in scenarios: the repository's {@code scenarios/*.yaml}, shipped in the jar under
 * {@code scenarios/} and runnable by name ({@code pacer run --scenario ramp-to-knee}).
 */
public final class Scenarios {

    private static final String FOLDER = "scenarios";

    private Scenarios() {
    }

    /** Every built-in scenario, parsed, by name. */
    public static Map<String, Scenario> builtIn() {
        Map<String, Scenario> all = new TreeMap<>();
        for (String file : files()) {
            Scenario s = load(file);
            all.put(s.name(), s);
        }
        return all;
    }

    /**
     * The built-in scenario with this name.
     *
     * @throws IllegalArgumentException one line naming the unknown name and listing the known ones
     */
    public static Scenario named(String name) {
        Scenario s = builtIn().get(name);
        if (s == null) {
            throw new SettingException("scenario", name, "no such built-in scenario; they are "
                    + String.join(", ", builtIn().keySet()) + " (or give a file)");
        }
        return s;
    }

    private static Scenario load(String file) {
        try (InputStream in = Scenarios.class.getResourceAsStream("/" + FOLDER + "/" + file)) {
            if (in == null) {
                throw new IllegalStateException("built-in scenario " + file + " is missing from the jar");
            }
            return ScenarioParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), FOLDER + "/" + file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read built-in scenario " + file, e);
        }
    }

    /** File names under the built-in folder, whether it is a directory (tests) or inside the jar. */
    static Iterable<String> files() {
        URL url = Scenarios.class.getResource("/" + FOLDER);
        if (url == null) {
            return java.util.List.of();
        }
        try {
            URI uri = url.toURI();
            if (uri.getScheme().equals("jar")) {
                FileSystem fs;
                try {
                    fs = FileSystems.getFileSystem(uri);
                } catch (FileSystemNotFoundException e) {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                }
                return list(fs.getPath("/" + FOLDER));
            }
            return list(Path.of(uri));
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list the built-in scenarios", e);
        }
    }

    private static Iterable<String> list(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
        }
    }

    /** The source of a scenario made by {@link #search}: it has no file, so its problems name settings. */
    public static final String SEARCH_SOURCE = "--search";

    /**
     * A scenario of one knee search (what {@code pacer run --search} runs), settling for a fifth of each hold.
     *
     * @throws SettingException naming the setting ({@code slo}, {@code from}, {@code to}, {@code hold},
     *                          {@code precision}) that is invalid; a hold whose probes could last longer than a run
     *                          may is the hold's fault
     */
    public static Scenario search(String slo, double from, double to, Duration hold, double precision) {
        RatePlan.Search plan = RatePlan.Search.of(from, to, slo, hold, null, precision);
        if (plan.maxDuration().compareTo(Durations.MAX) > 0) {
            throw new SettingException("hold", Durations.format(hold), "the search may take " + plan.maxProbes()
                    + " probes of it, " + Durations.format(plan.maxDuration()) + " in all, and a run lasts at most "
                    + Durations.MAX_TEXT);
        }
        Phase phase = new Phase("knee", plan.maxDuration(), plan, null, null, false, 1);
        return new Scenario("search", "the highest rate that meets " + slo, SEARCH_SOURCE, null, Map.of(), null, null,
                List.of(phase), Map.of(), null, null);
    }
}
