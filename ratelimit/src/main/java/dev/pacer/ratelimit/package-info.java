/**
 * Where a user starts: {@link dev.pacer.ratelimit.RateLimiters} makes a limiter (the lock-free one by default, or
 * a design of the family chosen with {@link dev.pacer.ratelimit.LimiterDesign}). The types every limiter shares
 * are in {@link dev.pacer.ratelimit.api}; the implementations below this package are
 * {@code dev.pacer.ratelimit.atomic} (the lock-free limiter) and {@code dev.pacer.ratelimit.family} (the locking
 * designs), which never use each other.
 */
package dev.pacer.ratelimit;
