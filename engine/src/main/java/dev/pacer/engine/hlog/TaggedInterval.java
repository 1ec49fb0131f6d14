package dev.pacer.engine.hlog;

import org.HdrHistogram.Histogram;

/**
 * One interval histogram of a log.
 *
 * @param tag       its tag ({@code wait}, {@code service}, {@code response}; a named op's, such as
 *                  {@code response.browse}; {@code ""} if untagged)
 * @param startSec  start, seconds since the epoch
 * @param endSec    end, seconds since the epoch
 * @param histogram the values recorded in the interval
 */
public record TaggedInterval(String tag, double startSec, double endSec, Histogram histogram) {
}
