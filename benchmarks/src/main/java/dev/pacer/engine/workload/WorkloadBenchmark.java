package dev.pacer.engine.workload;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A workload's per-cycle costs on one thread: two uniform bindings evaluated (the budget: ≥ 50 M cycles/s
 * per thread), a zipf binding spread by permute, a UUID, and a whole browse request written into bytes (no string
 * per request; run with {@code -prof gc} for bytes per op). In the engine's package to reach its compiled pieces.
 *
 * <pre>
 * benchmarks/run WorkloadBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class WorkloadBenchmark {

    static final String SHOP = """
            base: http://127.0.0.1:8080
            bindings:
              user: uniform(1, 50000)
              item: uniform(1, 100000)
              hot:  zipf(100000, 1.1) | permute
              ref:  uuid()
            ops:
              browse: {weight: 1, request: "GET /items/{item}?user={user}", check: {status: 200}}
            """;

    private Fn user;
    private Fn item;
    private Fn hot;
    private Fn ref;
    private Workload.Step browse;
    private final byte[] head = "Host: 127.0.0.1:8080\r\nUser-Agent: pacer\r\n".getBytes();
    private final Bytes out = new Bytes(512);
    private final Bytes body = new Bytes(256);
    private long cycle;

    @Setup
    public void setUp() {
        Workload w = WorkloadParser.parse(SHOP, "bench.yaml", Path.of("."), Map.of());
        user = w.bindings().get("user").fn();
        item = w.bindings().get("item").fn();
        hot = w.bindings().get("hot").fn();
        ref = w.bindings().get("ref").fn();
        browse = w.ops().get(0).steps().get(0);
    }

    /** Two hash-uniform bindings of one cycle. */
    @Benchmark
    public long twoUniformBindings() {
        long c = cycle++;
        return user.asLong(c) + item.asLong(c);
    }

    /** zipf(100000, 1.1) | permute. */
    @Benchmark
    public long zipfPermuted() {
        return hot.asLong(cycle++);
    }

    /** A UUID written as 36 ASCII bytes. */
    @Benchmark
    public int uuid() {
        ref.write(cycle++, out.clear());
        return out.length;
    }

    /** The whole request of a browse cycle (two bindings in its path and query) written into bytes. */
    @Benchmark
    public int browseRequest() {
        Rendered.writeHttp1(browse, new CycleState(cycle++, 0), head, out, body);
        return out.length;
    }
}
