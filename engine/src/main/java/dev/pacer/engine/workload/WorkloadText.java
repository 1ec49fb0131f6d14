package dev.pacer.engine.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * A workload file's text, read to a bound (a 3 GB file or {@code /dev/zero} is refused after the bound's bytes, not
 * read whole), and the top-level keys that tell a workload from a scenario and a SQL workload from an HTTP one.
 */
final class WorkloadText {

    private WorkloadText() {
    }

    /**
     * The file's text: at most {@link WorkloadParser#MAX_BYTES} bytes of UTF-8.
     *
     * @throws WorkloadException {@code file:1:} over the bound, or not UTF-8
     * @throws IOException       when it cannot be read
     */
    static String read(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(WorkloadParser.MAX_BYTES + 1);
        }
        if (bytes.length > WorkloadParser.MAX_BYTES) {
            throw new WorkloadException(file.toString(), 1, "over 4 MB; put data in csv files");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new WorkloadException(file.toString(), 1, "not UTF-8 text");
        }
    }

    /**
     * The file's top-level keys, each with its value when that is a scalar (else ""); empty when the file cannot be
     * read or is no YAML mapping. A file that is YAML only once its {@code ${vars}} are put in (a var in a flow
     * mapping) is told by its lines instead: a top-level key is a line that begins with it.
     */
    static Map<String, String> topLevel(Path file) {
        String text;
        try {
            text = read(file);
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        Map<String, String> keys = new HashMap<>();
        try {
            LoaderOptions limits = new LoaderOptions();
            limits.setCodePointLimit(WorkloadParser.MAX_BYTES);
            Node root = new Yaml(limits).compose(new StringReader(text));
            if (root instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode k) {
                        keys.putIfAbsent(k.getValue(), t.getValueNode() instanceof ScalarNode v ? v.getValue() : "");
                    }
                }
            }
            return keys;
        } catch (RuntimeException e) {
            text.lines().map(l -> l.split("#", 2)[0].stripTrailing())
                    .filter(l -> l.matches("[A-Za-z_][\\w-]*\\s*:.*"))
                    .forEach(l -> keys.putIfAbsent(l.substring(0, l.indexOf(':')).strip(),
                            l.substring(l.indexOf(':') + 1).strip()));
            return keys;
        }
    }
}
