package dev.pacer.engine.api;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file could not be read or written, in a few words for a one-line message ({@code No space left on device},
 * {@code permission denied}): the operating system's reason where the exception carries one, never its class or a
 * temp file's name.
 */
public final class IoReason {

    private IoReason() {
    }

    /** The reason {@code e} failed, in words. */
    public static String of(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or folder";
            case NotDirectoryException n -> "not a folder";
            case FileAlreadyExistsException f -> "a file is in the way";
            default -> e instanceof FileSystemException || e.getMessage() == null
                    ? e.getClass().getSimpleName().replaceFirst("Exception$", "") : e.getMessage();
        };
    }
}
