package dev.pacer.engine;

import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.op.Ops;
import java.util.Map;

/** The ops {@code --op} (and {@link LoadTest#op(String)}) can name: pacer's own and every provider found. */
public final class OpCatalog {

    private OpCatalog() {
    }

    /** Every op provider by name, pacer's built-in ones first. */
    public static Map<String, OpProvider> providers() {
        return Ops.providers();
    }
}
