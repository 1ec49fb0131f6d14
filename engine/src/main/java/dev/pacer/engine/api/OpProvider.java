package dev.pacer.engine.api;

/**
 * The op SPI: a factory of one kind of op, found with {@link java.util.ServiceLoader}.
 *
 * <p>To add an op, implement this interface, list the class in
 * {@code META-INF/services/dev.pacer.engine.api.OpProvider} of a jar, and put the jar on pacer's class
 * path ({@code PACER_CLASSPATH=my-ops.jar ./pacer run --op myop:arg}). See {@link Op} for the contract
 * of the ops it creates.
 */
public interface OpProvider {

    /** The name users give to {@code --op}, e.g. {@code sleep}. Lower case, no ':'. */
    String name();

    /** One line for {@code pacer ops}: what it does and its argument syntax. */
    String description();

    /**
     * Creates the op for one run.
     *
     * @throws IllegalArgumentException with one line naming the bad argument or option
     */
    Op create(OpSpec spec) throws Exception;

    /**
     * Creates the op for one run whose time is {@code clock}: an op that waits or measures time itself
     * does it on this clock, so a run on a {@link dev.pacer.engine.api.ManualRunClock} stays exact.
     * Default: {@link #create(OpSpec)}, for ops that take no time of their own.
     */
    default Op create(OpSpec spec, dev.pacer.engine.api.RunClock clock) throws Exception {
        return create(spec);
    }
}
