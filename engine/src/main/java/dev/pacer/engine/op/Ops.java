package dev.pacer.engine.op;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;

import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.SettingException;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Finds op providers: the built-in ones and every {@link OpProvider} on the class path. */
public final class Ops {

    private Ops() {
    }

    /**
     * Every provider by name, sorted.
     *
     * @throws IllegalArgumentException one line naming a provider listed on the class path that cannot be loaded
     *                                  (its class missing, or its constructor or name failing)
     */
    public static Map<String, OpProvider> providers() {
        Map<String, OpProvider> all = new TreeMap<>();
        try {
            for (OpProvider p : ServiceLoader.load(OpProvider.class, Ops.class.getClassLoader())) {
                all.putIfAbsent(p.name(), p);
            }
        } catch (ServiceConfigurationError | RuntimeException e) {
            String what = String.valueOf(e.getMessage()).replaceFirst("^" + OpProvider.class.getName() + ": ", "");
            throw new IllegalArgumentException("an op provider on the class path cannot be loaded: " + what
                    + (e.getCause() == null ? "" : " (" + e.getCause() + ")"), e);
        }
        return all;
    }

    /**
     * Creates the op a spec names.
     *
     * @throws SettingException naming an unknown op or a bad argument
     */
    public static Op create(OpSpec spec) throws Exception {
        return create(spec, RunClock.system());
    }

    /**
     * Creates the op a spec names, timed on the run's {@code clock}.
     *
     * @throws SettingException naming an unknown op or a bad argument
     */
    public static Op create(OpSpec spec, RunClock clock) throws Exception {
        OpProvider provider = providers().get(spec.name());
        if (provider == null) {
            throw new SettingException("op", spec.name(), "no such op; known ops are "
                    + providers().keySet().stream().collect(Collectors.joining(", ")));
        }
        return provider.create(spec, clock);
    }
}
