package dev.pacer.cli;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;

/**
 * A test op loaded through the SPI (listed in this module's test resources) whose jar lacks a class it needs: making
 * it throws {@link NoClassDefFoundError}, as an op does whose driver is not on {@code PACER_CLASSPATH}.
 */
public final class MissingClassOpProvider implements OpProvider {

    @Override
    public String name() {
        return "missing-class";
    }

    @Override
    public String description() {
        return "test op: its making fails with NoClassDefFoundError, a jar missing from the class path";
    }

    @Override
    public Op create(OpSpec spec) {
        throw new NoClassDefFoundError("com/example/Driver");
    }
}
