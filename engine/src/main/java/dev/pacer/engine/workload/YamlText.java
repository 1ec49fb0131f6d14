package dev.pacer.engine.workload;

import java.io.StringReader;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * A YAML file's node tree, as the workload and scenario parsers read it (SnakeYAML's composer, no objects made), or
 * what is wrong with its text and at which line, for their {@code file:line: what} messages.
 */
public final class YamlText {

    private YamlText() {
    }

    /**
     * The root node of {@code text}, or null for an empty document.
     *
     * @param maxCodePoints the longest text taken
     * @throws Invalid the line and the problem, in words
     */
    public static Node compose(String text, int maxCodePoints) {
        try {
            LoaderOptions limits = new LoaderOptions();
            limits.setCodePointLimit(maxCodePoints);
            return new Yaml(limits).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() != null ? e.getProblemMark().getLine() + 1 : 1;
            boolean var = text.lines().skip(line - 1).findFirst().orElse("").contains("${");
            throw new Invalid(line, "not valid YAML: " + e.getProblem() + (var ? " (a ${var} inside { } or [ ] is "
                    + "YAML's own syntax there: quote it, as \"${var}\")" : ""));
        } catch (ReaderException e) { // a character YAML does not allow: SnakeYAML gives where, not the line
            int at = Math.min(Math.max(0, e.getPosition()), text.length());
            int line = 1 + (int) text.substring(0, at).chars().filter(c -> c == '\n').count();
            throw new Invalid(line, String.format("not valid YAML: character U+%04X is not allowed", e.getCodePoint()));
        } catch (YAMLException e) {
            throw new Invalid(1, "not valid YAML: " + e.getMessage());
        }
    }

    /** A text that is not YAML: its line (from 1) and what is wrong. */
    public static final class Invalid extends RuntimeException {

        private final int line;

        Invalid(int line, String message) {
            super(message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }
}
