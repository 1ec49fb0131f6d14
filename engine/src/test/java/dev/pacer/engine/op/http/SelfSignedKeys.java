package dev.pacer.engine.op.http;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** A server's key and a self-signed certificate for {@code 127.0.0.1} (made by the JDK's keytool), for TLS tests. */
public final class SelfSignedKeys {

    private SelfSignedKeys() {
    }

    /** Makes the key and certificate in {@code dir} and returns key managers holding them. */
    public static KeyManagerFactory in(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-dname", "CN=localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "secret", "-keypass", "secret",
                "-ext", "SAN=ip:127.0.0.1").redirectErrorStream(true).start();
        keytool.getInputStream().transferTo(OutputStream.nullOutputStream());
        if (keytool.waitFor() != 0) {
            throw new IllegalStateException("keytool failed with exit " + keytool.exitValue());
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "secret".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "secret".toCharArray());
        return kmf;
    }
}
