/**
 * The limiter family: {@link dev.pacer.ratelimit.family.LockingLimiter} and the designs that model limiters from
 * the field (token bucket, warm-up, leaky bucket, windows, ...), built by name through
 * {@link dev.pacer.ratelimit.family.Designs}. Uses only {@code dev.pacer.ratelimit.api}; made by
 * {@code RateLimiters} with a {@code LimiterDesign}.
 */
package dev.pacer.ratelimit.family;
