package dev.pacer.engine.text;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one Jackson mapper pacer reads and writes JSON with (summary, status, control bodies, log
 * comments, reports). An {@link ObjectMapper} is thread-safe once configured; nothing may reconfigure
 * this one.
 */
public final class Json {

    /** Compact output, for one-line uses such as log comments. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** Indented output, for files and answers people read. */
    public static final ObjectWriter PRETTY = MAPPER.writer().with(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }
}
