/**
 * What a run prints and writes for people and scripts: the start lines, the progress line per
 * interval, the summary as text and as JSON. Reads result records; changes nothing.
 */
package dev.pacer.engine.sink;
