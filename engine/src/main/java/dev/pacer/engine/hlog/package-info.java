/**
 * The interval histogram log: HdrHistogram's format, written by
 * {@link dev.pacer.engine.hlog.HlogWriter} and read back by {@link dev.pacer.engine.hlog.HlogReader};
 * pacer's own comment lines (settings, changes) are defined once, in
 * {@link dev.pacer.engine.hlog.HlogComments}.
 */
package dev.pacer.engine.hlog;
