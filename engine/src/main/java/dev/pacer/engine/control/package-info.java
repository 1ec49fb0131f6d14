/**
 * Changing a running load: {@link dev.pacer.engine.api.ControlAction}s parsed from the console or
 * the HTTP endpoint and applied to the activity by {@link dev.pacer.engine.control.RunController}, and
 * the {@link dev.pacer.engine.control.RunStatus} they answer with; and the live web console the endpoint
 * serves: its page, and the {@link dev.pacer.engine.control.LiveFeed} of the run's records that streams to it.
 */
package dev.pacer.engine.control;
