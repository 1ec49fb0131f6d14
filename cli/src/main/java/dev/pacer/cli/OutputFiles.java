package dev.pacer.cli;

import dev.pacer.engine.api.IoReason;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.StandardStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files a run writes ({@code --hlog}, {@code --summary}, {@code --plot}), checked before it starts so
 * that nothing measured is lost at the end: each can be written (a file that does not exist yet is made
 * and removed again, which is the only sure test: {@code /proc} looks writable), and no two flags name
 * the same file (one would overwrite the other). Device files and pipes ({@code /dev/null},
 * {@code /dev/stdout}) may be named by several.
 */
final class OutputFiles {

    private OutputFiles() {
    }

    /**
     * @param byFlag each output flag and its file (null when not given), in the order to check them
     * @throws IllegalArgumentException one line naming the flag and the file
     */
    static void check(Map<String, Path> byFlag) {
        check(byFlag, Map.of());
    }

    /**
     * As {@link #check(Map)}, and no output is one of the files the command reads: writing it would destroy what
     * is read (a log, a scenario, a body). Files are compared by identity, so another path, a symbolic link or a
     * hard link to an input is refused too.
     *
     * @param inputs each file read, and what it is in words ({@code a log this report reads}, {@code the --body file})
     * @throws IllegalArgumentException one line naming the flag, the file and the input it is
     */
    static void check(Map<String, Path> byFlag, Map<Path, String> inputs) {
        Map<Object, Map.Entry<Path, String>> read = new LinkedHashMap<>();
        inputs.forEach((file, what) -> {
            Object identity = file == null ? null : identity(file);
            if (identity != null) {
                read.putIfAbsent(identity, Map.entry(file, what));
            }
        });
        byFlag.forEach((flag, file) -> {
            Object identity = file == null ? null : identity(file);
            Map.Entry<Path, String> input = identity == null ? null : read.get(identity);
            if (input != null) {
                throw new IllegalArgumentException("invalid " + flag + " '" + file + "': is " + input.getValue()
                        + (input.getKey().equals(file) ? "" : " (" + input.getKey() + ")")
                        + ", which writing would destroy; give another file");
            }
        });
        Map<Path, String> seen = new LinkedHashMap<>();
        byFlag.forEach((flag, file) -> {
            if (file == null) {
                return;
            }
            Path real = checkOne(flag, file);
            boolean shareable = Files.exists(real) && !Files.isRegularFile(real) || StandardStreams.isStream(file);
            String other = shareable ? null : seen.putIfAbsent(real, flag);
            if (other != null) {
                throw new IllegalArgumentException("invalid " + flag + " '" + file + "': " + other
                        + " writes the same file; give each its own");
            }
        });
    }

    /** Checks that {@code file} can be written (the engine's check, in the flag's words); returns the file it names. */
    private static Path checkOne(String flag, Path file) {
        try {
            return dev.pacer.engine.api.OutputFiles.checkWritable(flag, file);
        } catch (SettingException e) {
            throw new IllegalArgumentException("invalid " + flag + " '" + file + "': " + e.reason());
        }
    }

    /**
     * What tells a regular file from another (its file key: device and inode; else its real path), or null when
     * {@code file} is not a regular file that exists: a device or a pipe is read and written without harm.
     */
    private static Object identity(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return null;
            }
            return a.fileKey() != null ? a.fileKey() : file.toRealPath();
        } catch (IOException e) {
            return null; // not there (yet): nothing to destroy
        }
    }

    /** Why a file or folder could not be made, in words (not an exception's class name). */
    static String why(IOException e) {
        return IoReason.of(e);
    }
}
