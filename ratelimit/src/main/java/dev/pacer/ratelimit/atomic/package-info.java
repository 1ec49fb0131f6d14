/**
 * The lock-free limiter, {@link dev.pacer.ratelimit.atomic.LockFreeRateLimiter}, and its internals: the padded
 * shared fields, settings, grants and their registry. Each class documents the shared fields it holds. Uses only
 * {@code dev.pacer.ratelimit.api}; made by {@code RateLimiters}.
 */
package dev.pacer.ratelimit.atomic;
