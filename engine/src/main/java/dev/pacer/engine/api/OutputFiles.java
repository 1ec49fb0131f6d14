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
                String kernel = Files.isRegularFile(file) ? kernelFileSystem(file) : null;
                if (kernel != null) {
                    throw new SettingException(setting, file.toString(), "cannot write it (the kernel's " + kernel
                            + " file system)");
                }
                // a pipe has no real path (/dev/stdout of `pacer ... | gzip`, /dev/fd/63 of >(gzip)); a device or a
                // pipe may be shared, so its name serves
                return Files.isRegularFile(file) && !StandardStreams.isStream(file) ? file.toRealPath()
                        : file.toAbsolutePath().normalize();
            }
            String kernel = kernelFileSystem(parent);
            if (kernel != null) {
                throw new SettingException(setting, file.toString(), "cannot make a file there (the kernel's "
                        + kernel + " file system)");
            }
            Path real = parent.toRealPath().resolve(file.getFileName());
            Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(file);
            return real;
        } catch (IOException e) {
            throw new SettingException(setting, file.toString(), "cannot make a file there (" + IoReason.of(e) + ")");
        }
    }

    /**
     * Linux's file systems that show the kernel's state as files: a file there looks regular and writable (as root),
     * takes the open, and fails the write ({@code /proc/version}: EIO), or takes no new file (ENOENT).
     */
    private static final java.util.Set<String> KERNEL_FILE_SYSTEMS = java.util.Set.of("proc", "sysfs", "cgroup",
            "cgroup2", "debugfs", "tracefs", "securityfs", "configfs", "bpf", "pstore", "efivarfs", "fusectl");

    /** The kernel file system {@code path} is on ({@code proc}, {@code sysfs}, ...), or null (or when unknown). */
    private static String kernelFileSystem(Path path) {
        try {
            String type = Files.getFileStore(path).type();
            return KERNEL_FILE_SYSTEMS.contains(type) ? type : null;
        } catch (IOException | RuntimeException e) {
            return null; // no mount entry to read: the write itself will say
        }
    }
}
