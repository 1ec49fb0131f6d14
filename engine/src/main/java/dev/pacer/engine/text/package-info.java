/**
 * Text files and JSON as the engine reads and writes them: bounded line reading, errors naming a file's line, output
 * files, the shared JSON mapper. Durations and {@link dev.pacer.engine.api.SettingException} are in the API.
 */
package dev.pacer.engine.text;
