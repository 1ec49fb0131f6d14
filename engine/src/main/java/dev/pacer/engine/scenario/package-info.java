/**
 * Scenarios: timed phases of rates read from YAML ({@link dev.pacer.engine.scenario.ScenarioParser})
 * and played on a running activity ({@link dev.pacer.engine.scenario.ScenarioRunner}).
 */
package dev.pacer.engine.scenario;
