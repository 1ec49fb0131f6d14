package dev.pacer.engine.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a file a run is to write (its log, its CSV, its summary; the CLI's page) can be written, checked before
 * the run starts so that nothing measured is lost at its end: a file that does not exist yet is made and removed again,
 * which is the only sure test ({@code /proc} looks writable). The engine checks its own outputs with it when a test
 * starts; the CLI checks its flags' with it.
 */
public final class OutputFiles {

    private OutputFiles() {
    }

    /**
     * Refuses a file that cannot be written, naming {@code setting} ({@code hlog}, {@code summary}, ...): no name, a
     * folder that does not exist or is a file, a folder given as the file, a file that cannot be written or made.
     * Returns the file it names: links resolved for a regular file, else (a device, a pipe, a file to be made) its
     * absolute path in a real folder.
     *
     * @throws SettingException one line naming the setting, the file and why
     */
    public static Path checkWritable(String setting, Path file) {
        if (file.toString().isBlank()) {
            throw new SettingException(setting, file.toString(), "give a file name");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
            throw new SettingException(setting, file.toString(), parent + " is a file, not a folder");
        }
        if (parent == null || !Files.isDirectory(parent)) {
            throw new SettingException(setting, file.toString(), "the folder " + parent + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new SettingException(setting, file.toString(), "is a folder");
        }
        try {
            if (Files.exists(file)) {
                if (!Files.isWritable(file)) {
                    throw new SettingException(setting, file.toString(), "cannot write it");
                }
                // a pipe has no real path (/dev/stdout of `pacer ... | gzip`, /dev/fd/63 of >(gzip)); a device or a
                // pipe may be shared, so its name serves
                return Files.isRegularFile(file) && !StandardStreams.isStream(file) ? file.toRealPath()
                        : file.toAbsolutePath().normalize();
            }
            Path real = parent.toRealPath().resolve(file.getFileName());
            Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(file);
            return real;
        } catch (IOException e) {
            throw new SettingException(setting, file.toString(), "cannot make a file there (" + IoReason.of(e) + ")");
        }
    }
}
