import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * A server of known capacity for benchmarks/poisson-vs-uniform.sh: WORKERS threads, each answering a request after
 * SERVICE_MS of sleep, so it serves WORKERS × 1000 / SERVICE_MS requests a second at most. Run as a single file:
 * {@code java benchmarks/CapacityServer.java WORKERS SERVICE_MS PORT}.
 */
public final class CapacityServer {
    public static void main(String[] args) throws Exception {
        int workers = Integer.parseInt(args[0]);
        long serviceMs = Long.parseLong(args[1]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[2])), 1024);
        server.setExecutor(Executors.newFixedThreadPool(workers));
        server.createContext("/", exchange -> {
            try {
                Thread.sleep(serviceMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 3);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("ok\n".getBytes());
            }
        });
        server.start();
        System.out.println("listening");
    }
}
