/**
 * Changing a running load: {@link dev.pacer.engine.control.ControlAction}s parsed from the console or
 * the HTTP endpoint and applied to the activity by {@link dev.pacer.engine.control.RunController}, and
 * the {@link dev.pacer.engine.control.RunStatus} they answer with.
 */
package dev.pacer.engine.control;
