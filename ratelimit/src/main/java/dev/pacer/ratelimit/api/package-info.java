/**
 * The types every limiter and every user shares: {@link dev.pacer.ratelimit.api.RateLimiter}, its
 * {@link dev.pacer.ratelimit.api.Grant}, {@link dev.pacer.ratelimit.api.RateSpec}, snapshots, clocks and sleepers
 * (system and manual), and the number and duration grammar. Depends on nothing of pacer's.
 */
package dev.pacer.ratelimit.api;
