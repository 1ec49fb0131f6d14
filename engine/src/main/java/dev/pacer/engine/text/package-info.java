/**
 * Text as users write and read it: durations ({@code 2ms}, {@code 1.5s}), rates, the shared JSON
 * mapper, and {@link dev.pacer.engine.text.SettingException} for a value the engine cannot take.
 */
package dev.pacer.engine.text;
