package dev.pacer.cli;

import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.WorkloadFiles;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pacer show}: what a workload's cycles would send, without sending anything. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Prints what a workload file's cycles would send (each binding's value and the rendered "
                + "requests, or a postgres workload's statements and their parameters' values), without sending "
                + "anything.")
final class ShowCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WORKLOAD.yaml", description = "The workload file.")
    Path file;

    @Option(names = "--cycles", paramLabel = "N", description = "Show the first N cycles (default 10).")
    Long cycles;

    @Option(names = "--cycle", paramLabel = "C", description = "Show the one global cycle C.")
    Long cycle;

    @Option(names = "--shards", paramLabel = "N",
            description = "The test's shard count, which picks each cycle's op (default 1; a cycle's data never "
                    + "depends on it).")
    int shards = 1;

    @Option(names = "--var", paramLabel = "NAME=VALUE", description = "Override a var of the file (repeatable).")
    List<String> vars = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (cycles != null && cycle != null) {
            throw new IllegalArgumentException("give --cycles N or --cycle C, not both");
        }
        if (cycles != null && (cycles < 1 || cycles > 1_000_000)) {
            throw new IllegalArgumentException("--cycles " + cycles + ": expected 1 to 1000000");
        }
        if (cycle != null && cycle < 0) {
            throw new IllegalArgumentException("--cycle " + cycle + ": cycles start at 0");
        }
        if (cycle != null && cycle == Long.MAX_VALUE) { // the cycles shown end before cycle + 1, which overflows
            throw new IllegalArgumentException("--cycle " + cycle + ": the last cycle is " + (Long.MAX_VALUE - 1));
        }
        try {
            new Shard(0, shards); // the same bounds as --shard
        } catch (SettingException e) {
            throw new SettingException("shards", Integer.toString(shards), e.reason());
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("invalid workload file '" + file + "': is a folder");
        }
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("workload file '" + file + "' does not exist");
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("invalid workload file '" + file + "': not a regular file (a device, "
                    + "pipe or socket)");
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        for (String v : vars) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--var " + v + ": expected NAME=VALUE");
            }
            String name = v.substring(0, eq).strip();
            if (overrides.put(name, v.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("invalid --var '" + v + "': sets " + name + " again: give each var "
                        + "once");
            }
        }
        long from = cycle != null ? cycle : 0;
        long to = cycle != null ? cycle + 1 : cycles != null ? cycles : 10;
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        WorkloadFiles.show(file, overrides, from, to, shards, out);
        return PacerCommand.EXIT_OK;
    }
}
