package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadParserTest {

    static final String SHOP = """
            name: shop-mix
            base: http://127.0.0.1:8080
            vars: {items: 100000, users: 50000}
            bindings:
              user: uniform(1, ${users})
              item: zipf(${items}, 1.1) | permute
              name: pick('say "hi" \\ back':1, plain:1)
              ref:  uuid()
            ops:
              browse:      {weight: 70, request: "GET /items/{item}?user={user}", check: {status: 200, json: {/id: \
            "{item}"}}}
              add-to-cart: {weight: 25, request: "POST /users/{user}/cart", json: {item: "{item}", name: "{name}", n: \
            2, ok: true}, check: {status: [200, 201]}}
              checkout:
                weight: 5
                steps:
                  - {request: "POST /users/{user}/orders", json: {ref: "{ref}"}, check: {status: 201}, save: {order: \
            json(/orderId)}}
                  - {request: "POST /orders/{order}/pay", headers: {X-Order: "{order}"}, check: {status: 2xx}}
            """;

    @TempDir
    Path dir;

    private Workload parse(String text) {
        return WorkloadParser.parse(text, "w.yaml", dir, Map.of());
    }

    @Test
    void theShopExampleRendersTypedEscapedRequests() {
        Workload w = parse(SHOP);
        assertEquals("shop-mix", w.name());
        assertEquals(java.util.List.of("browse", "add-to-cart", "checkout"), w.opNames());
        Bytes scratch = new Bytes(64);
        Workload.Op cart = w.ops().get(1);
        CycleState st = new CycleState(5, 0);
        Rendered r = Rendered.of(cart.steps().get(0), st, scratch);
        long user = w.bindings().get("user").fn().asLong(5);
        long item = w.bindings().get("item").fn().asLong(5);
        assertEquals("/users/" + user + "/cart", r.target());
        String name = w.bindings().get("name").fn().text(5);
        String nameJson = name.equals("plain") ? "\"plain\"" : "\"say \\\"hi\\\" \\\\ back\"";
        assertEquals("{\"item\":" + item + ",\"name\":" + nameJson + ",\"n\":2,\"ok\":true}",
                new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(java.util.List.of("Content-Type", "application/json"), r.headers());
        assertTrue(user >= 1 && user <= 50000 && item >= 1 && item <= 100000);
    }

    @Test
    void aSavedValueFillsLaterStepsOfItsCycleTypedInJson() {
        Workload w = parse(SHOP);
        Workload.Op checkout = w.ops().get(2);
        assertEquals(java.util.List.of("order"), checkout.savedNames());
        CycleState st = new CycleState(9, 1);
        st.saved[0] = "a b/7";
        st.savedIsText[0] = true;
        Rendered r = Rendered.of(checkout.steps().get(1), st, new Bytes(16));
        assertEquals("/orders/a%20b%2F7/pay", r.target(), "percent-encoded in upper case (RFC 3986 2.1)");
        assertEquals("a b/7", r.headers().get(1));
    }

    @Test
    void varsAreOverriddenFromOutside() {
        Workload w = WorkloadParser.parse(SHOP, "w.yaml", dir, Map.of("users", "3"));
        for (long c = 0; c < 100; c++) {
            assertTrue(w.bindings().get("user").fn().asLong(c) <= 3);
        }
    }

    @Test
    void showPrintsBindingsAndRequestsWithoutSending() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WorkloadShow.print(parse(SHOP), 0, 20, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(14, out.split("cycle \\d+: browse", -1).length - 1, out);
        assertEquals(5, out.split("cycle \\d+: add-to-cart", -1).length - 1);
        assertTrue(out.contains("cycle 8: checkout"), out);
        assertTrue(out.contains("| POST /orders/~order~/pay HTTP/1.1\n  | Host: 127.0.0.1:8080\n"
                + "  | User-Agent: pacer\n  | X-Order: ~order~\n  | Content-Length: 0\n"),
                "the lines the run sends, a bodiless POST's length among them: " + out);
    }

    /** Past a once-read file's rows show says so, up to the last cycle; a cycle after that is refused, not wrapped. */
    @Test
    void showSaysACyclePastAOnceReadFileSendsNothing() throws IOException {
        Files.writeString(dir.resolve("two.csv"), "n\na\nb\n");
        Workload w = parse("""
                base: http://localhost:1
                bindings: {n: "csv(two.csv, n, once)"}
                ops: {a: {weight: 1, request: "GET /{n}"}}
                """);
        long last = (1L << 48) - 1; // the last cycle the functions are defined for; show refuses those after it
        for (long[] range : new long[][] {{0, 4}, {last, last + 1}}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            WorkloadShow.print(w, range[0], range[1], 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String out = bytes.toString(StandardCharsets.UTF_8);
            long sent = out.lines().filter(l -> l.startsWith("  | GET /")).count();
            long nothing = out.lines().filter(l -> l.equals("  sends nothing: data-exhausted")).count();
            long past = Math.max(0, range[1] - Math.max(range[0], 2));
            assertEquals(range[1] - range[0] - past, sent, out);
            assertEquals(past, nothing, out);
        }
        for (long from : new long[] {last + 1, Long.MAX_VALUE - 2}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> WorkloadShow.print(w, from, from + 1, 1, new PrintStream(new ByteArrayOutputStream())));
            assertEquals("cycle " + from + " is past the last a workload gives data for, " + last + " (2^48 - 1)",
                    e.getMessage());
        }
    }

    @Test
    void aCsvFileIsReadRelativeToTheWorkload() throws IOException {
        Files.writeString(dir.resolve("names.csv"), "first_name,last\nAda,L\nAlan,T\n");
        Workload w = parse("""
                base: http://localhost:1
                bindings: {name: "csv(names.csv, first_name, seq)"}
                ops: {a: {weight: 1, request: "GET /{name}"}}
                """);
        assertEquals("Alan", w.bindings().get("name").fn().text(1));
    }

    @Test
    void aCsvWithAByteOrderMarkIsReadByItsFirstColumnsNameAndOneNotInUtf8IsRefused() throws IOException {
        Files.write(dir.resolve("bom.csv"), ("\uFEFFid,name\r\n7,Ada\r\n").getBytes(StandardCharsets.UTF_8));
        Workload w = parse("""
                base: http://localhost:1
                bindings: {id: "csv(bom.csv, id, seq)"}
                ops: {a: {weight: 1, request: "GET /{id}"}}
                """);
        assertEquals("7", w.bindings().get("id").fn().text(0));
        Files.write(dir.resolve("latin1.csv"), "id,name\n7,Zo\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse("""
                base: http://localhost:1
                bindings: {name: "csv(latin1.csv, name)"}
                ops: {a: {weight: 1, request: "GET /{name}"}}
                """));
        assertTrue(e.getMessage().startsWith("w.yaml:2: ") && e.getMessage().contains("latin1.csv: is not UTF-8 text "
                + "(byte 12)"), e.getMessage());
    }

    @Test
    void varsThatRepeatVarsPastTheFilesBoundAreRefusedBeforeTheyAreBuilt() {
        StringBuilder vars = new StringBuilder("vars: {");
        for (char v = 'a'; v < 'j'; v++) { // a is 10^9 characters: j's ten, nine levels of tenfold
            vars.append(v).append(": '").append(("${" + (char) (v + 1) + "}").repeat(10)).append("', ");
        }
        vars.append("j: xxxxxxxxxx}");
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse("base: http://h:1\n" + vars
                + "\nbindings: {x: 'pick(${a})'}\nops: {a: {weight: 1, request: GET /}}\n"));
        assertEquals(2, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("expands past 4 MB"), e.getMessage());
    }

    /**
     * show on a postgres workload prints each statement and its parameters' values: it said "unknown key 'url'" of a
     * file pacer run takes, and without that key that it renders http workloads only.
     */
    @Test
    void showPrintsAPostgresWorkloadsStatementsAndTheirValues() {
        SqlWorkload w = SqlWorkloadParser.parse("""
                driver: postgres
                url: postgresql://app:secret@127.0.0.1:5432/shop
                bindings: {user: "uniform(7, 7)", note: "pick(x:1)"}
                ops:
                  order:
                    weight: 1
                    transaction:
                      - {sql: "INSERT INTO orders (user_id, note) VALUES ({user}, {note}) RETURNING id", save: {o: id}}
                      - {sql: "INSERT INTO order_log (order_id, at) VALUES ({o}, now())"}
                  look: {weight: 1, sql: "SELECT * FROM orders WHERE id = {cycle}"}
                """, "w.yaml", dir, Map.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WorkloadShow.printSql(w, 0, 2, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
                workload w (postgres): 2 ops, mix window 2 cycles

                cycle 0: order
                  user = 7
                  note = x
                  | BEGIN
                  | INSERT INTO orders (user_id, note) VALUES ($1::int8, $2) RETURNING id
                  |   $1 = 7
                  |   $2 = 'x'
                  | INSERT INTO order_log (order_id, at) VALUES ($1, now())
                  |   $1 = ~o~
                  | COMMIT

                cycle 1: look
                  user = 7
                  note = x
                  | SELECT * FROM orders WHERE id = $1::int8
                  |   $1 = 1
                """, bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    /** A --var the file has no var for is the command line's mistake: it was said as the file's line 1. */
    @Test
    void aVarTheFileDoesNotHaveIsNamedWithoutALineOfTheFile() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(
                "base: http://h:1\nvars: {users: 5}\nops: {a: {weight: 1, request: GET /}}\n", "w.yaml", dir,
                Map.of("nope", "3")));
        assertEquals("cannot set var 'nope': w.yaml has none of that name (its vars: users)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SqlWorkloadParser.parse(
                "driver: postgres\nops: {a: {weight: 1, sql: SELECT 1}}\n", "s.yaml", dir, Map.of("nope", "3")));
        assertEquals("cannot set var 'nope': s.yaml has none of that name (its vars: )", e.getMessage());
    }

    @Test
    void aBasesSchemeIsCaseInsensitive() {
        assertEquals(java.net.URI.create("https://h:8443"),
                parse("base: HTTPS://h:8443\nops: {a: {weight: 1, request: GET /}}\n").base());
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse(
                "base: FTP://h\nops: {a: {weight: 1, request: GET /}}\n"));
        assertTrue(e.getMessage().startsWith("w.yaml:1: base 'FTP://h' must be an http:// or https:// URL"),
                e.getMessage());
    }

    @Test
    void aBaseWithAUserAndPasswordIsRefusedWithoutShowingThem() {
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse(
                "base: http://alice:s3cret@h:8080\nops: {a: {weight: 1, request: GET /}}\n"));
        assertTrue(e.getMessage().startsWith("w.yaml:1: ") && e.getMessage().contains("has a user name or password")
                && e.getMessage().contains("h:8080"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret") || e.getMessage().contains("alice"), e.getMessage());
    }

    @Test
    void aStepsHeaderReplacesTheFilesDefaultOfTheSameNameAndACsvNamingAColumnTwiceIsRefused() throws IOException {
        Workload w = parse("""
                base: http://h:1
                headers: {X-U: a, X-Keep: k}
                ops: {a: {weight: 1, request: GET /, headers: {x-u: b}}}
                """);
        assertEquals(List.of("X-Keep", "x-u"), w.ops().get(0).steps().get(0).headers().stream()
                .map(Workload.Header::name).toList());
        Files.writeString(dir.resolve("twice.csv"), "id,name,id\n1,a,2\n");
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse("""
                base: http://h:1
                bindings: {x: "csv(twice.csv, id)"}
                ops: {a: {weight: 1, request: GET /}}
                """));
        assertTrue(e.getMessage().contains("names column 'id' twice"), e.getMessage());
    }

    @Test
    void aTabInAHeaderValueIsAllowedAsHttpAllowsIt() {
        Workload w = parse("base: http://h:1\nops: {a: {weight: 1, request: GET /, headers: {X-U: \"a\\tb\"}}}\n");
        assertEquals(1, w.ops().size());
    }

    /** A broken file, the line the error must name, and a piece of its message. */
    @ParameterizedTest
    @CsvSource(delimiter = '¦', textBlock = """
            ops: {a: {weight: 1, request: GET /}}¦1¦needs 'base'
            base: http://h:1¦1¦needs 'ops'
            base: http://h:1\\nops: {}¦2¦no ops
            base: ftp://h:1\\nops: {a: {weight: 1, request: GET /}}¦1¦http:// or https:// URL
            base: http://h:1/api\\nops: {a: {weight: 1, request: GET /}}¦1¦paths go in each request
            base: http://h:1\\nbogus: 1\\nops: {a: {weight: 1, request: GET /}}¦2¦unknown key 'bogus'
            base: http://h:1\\nops:\\n  a: {weight: 0, request: GET /}¦3¦weight must be ≥ 1
            base: http://h:1\\nops:\\n  a: {weight: -3, request: GET /}¦3¦weight must be ≥ 1
            base: http://h:1\\nops:\\n  a: {weight: lots, request: GET /}¦3¦not a whole number
            base: http://h:1\\nops:\\n  a: {request: GET /}¦3¦needs a 'weight'
            base: http://h:1\\nops:\\n  a: {weight: 1}¦3¦needs a 'request'
            base: http://h:1\\nops:\\n  a: {weight: 1, request: /x}¦3¦method and a path
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET x}¦3¦must start with /
            base: http://h:1\\nops:\\n  a: {weight: 1, request: HEAD /}¦3¦HEAD is not supported
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, save: {s: cookie(a b)}}¦3¦'a b' is not a \
            cookie name
            base: http://h:1\\nops:\\n  a: {weight: 1, request: 'GET /{nope}'}¦3¦{nope} is neither a binding
            base: http://h:1\\nbindings:\\n  x: frobnicate(1)\\nops: {a: {weight: 1, request: GET /}}¦3¦unknown \
            function 'frobnicate'
            base: http://h:1\\nbindings:\\n  x: uniform(1)\\nops: {a: {weight: 1, request: GET /}}¦3¦takes 2 arguments
            base: http://h:1\\nbindings:\\n  x: uniform(9, 1)\\nops: {a: {weight: 1, request: GET /}}¦3¦lower bound
            base: http://h:1\\nbindings:\\n  x: uniform(a, 1)\\nops: {a: {weight: 1, request: GET /}}¦3¦'a' is not a \
            whole number
            base: http://h:1\\nbindings:\\n  x: zipf(0, 1.1)\\nops: {a: {weight: 1, request: GET /}}¦3¦n ≥ 1
            base: http://h:1\\nbindings:\\n  x: zipf(10, 0)\\nops: {a: {weight: 1, request: GET /}}¦3¦exponent s > 0
            base: http://h:1\\nbindings:\\n  x: gaussian(1, 10, 1)\\nops: {a: {weight: 1, request: GET /}}¦3¦p ≥ 2
            base: http://h:1\\nbindings:\\n  x: exponential(1, 10, 0)\\nops: {a: {weight: 1, request: GET /}}¦3¦p > 0
            base: http://h:1\\nbindings:\\n  x: uuid() | add(1)\\nops: {a: {weight: 1, request: GET /}}¦3¦input is text
            base: http://h:1\\nbindings:\\n  x: uniform(1, 2) | uniform(1, 2)\\nops: {a: {weight: 1, request: GET \
            /}}¦3¦starts a binding
            base: http://h:1\\nbindings:\\n  x: uniform(1, 2) | div(0)\\nops: {a: {weight: 1, request: GET /}}¦3¦k > 0
            base: http://h:1\\nbindings:\\n  x: hash() | mul(4)\\nops: {a: {weight: 1, request: GET /}}¦3¦overflows
            base: http://h:1\\nbindings:\\n  x: uniform(1, 2\\nops: {a: {weight: 1, request: GET /}}¦3¦no closing
            base: http://h:1\\nbindings:\\n  x: csv(missing.csv, a)\\nops: {a: {weight: 1, request: GET /}}¦3¦no such \
            file
            base: http://h:1\\nbindings:\\n  x: csv(names.csv, age)\\nops: {a: {weight: 1, request: GET /}}¦3¦has no \
            column 'age'
            base: http://h:1\\nbindings:\\n  x: pick(a:0)\\nops: {a: {weight: 1, request: GET /}}¦3¦must be ≥ 1
            base: http://h:1\\nbindings:\\n  x: alnum(1, 99999999)\\nops: {a: {weight: 1, request: GET /}}¦3¦length
            base: http://h:1\\nbindings:\\n  x: timestamp(yesterday, 1s)\\nops: {a: {weight: 1, request: GET \
            /}}¦3¦instant
            base: http://h:1\\nbindings:\\n  x: seq(1)\\nops: {a: {weight: 1, request: GET /}}¦3¦takes 0 arguments
            base: http://h:1\\nvars: {a: '${b}', b: '${a}'}\\nbindings:\\n  x: uniform(1, ${a})\\nops: {a: {weight: 1, \
            request: GET /}}¦2¦refers to itself
            base: http://h:1\\nbindings:\\n  x: uniform(1, ${nope})\\nops: {a: {weight: 1, request: GET /}}¦3¦is not a \
            var
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, check: {status: 700}}¦3¦expected a status
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, check: {regex: '(('}}¦3¦does not compile
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, check: {json: {id: 1}}}¦3¦not a JSON pointer
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, check: {warn: maybe}}¦3¦true or false
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, save: {o: body(x)}}¦3¦json(/pointer), header(Name) or cookie(name)
            base: http://h:1\\nops:\\n  a: {weight: 1, request: 'GET /{o}', save: {o: json(/id)}}¦3¦saved by this step
            base: http://h:1\\nops:\\n  a:\\n    weight: 1\\n    steps:\\n      - {request: 'GET /{o}'}\\n      - \
            {request: GET /, save: {o: json(/id)}}¦6¦neither a binding
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, headers: {Host: x}}¦3¦sets Host itself
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, body: x, json: {a: 1}}¦3¦not both
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /}\\n  a: {weight: 1, request: GET /}¦4¦duplicate \
            key 'a'
            base: http://h:1\\nops:\\n  a: {weight: 1, steps: [], request: GET /}¦3¦goes in a step
            base: http://h:1\\ndriver: kafka\\nops: {a: {weight: 1, request: GET /}}¦2¦driver 'kafka'
            driver: postgres\\nops: {a: {weight: 1, sql: select 1}}¦1¦pacer run and pacer show take it
            base: http://h:1\\nops: [1, 2¦2¦not valid YAML
            vars: {w: 1}\\nbase: http://h:1\\nops:\\n  a: {weight: ${w}, request: GET /}¦4¦quote it, as "${var}"
            base: http://h:99999\\nops: {a: {weight: 1, request: GET /}}¦1¦port 99999 is out of range
            name: "a\\x1b[2Jb"\\nbase: http://h:1\\nops: {a: {weight: 1, request: GET /}}¦1¦has a control character
            base: http://h:1\\nops:\\n  -.-: {weight: 1, request: GET /}¦3¦starting with a letter, digit or _
            base: http://h:1\\nbindings:\\n  x: pick(a:9223372036854775807, b:1)\\nops: {a: {weight: 1, request: GET \
            /}}¦3¦add up past
            base: http://h:1\\nops:\\n  a: {weight: 1, request: "GET /\\x01"}¦3¦control character (U+0001)
            base: http://h:1\\nops:\\n  a: {weight: 1, request: "GET /a\\x7f"}¦3¦control character (U+007F)
            base: http://h:1\\nops:\\n  a: {weight: 1, request: "GET /a#top"}¦3¦#fragment
            base: http://h:1\\nops:\\n  a: {weight: 1, request: "GET /caf\u00e9?q=1"}¦3¦has 'é', not ASCII; percent-encode it \
            (%C3%A9)
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, headers: {X-U: "a\\x01b"}}¦3¦control character
            base: http://h:1\\nops:\\n  a: {weight: 1, request: POST /, json: {f: 017}}¦3¦'017' is an octal number
            base: http://h:1\\nops:\\n  a: {weight: 1, request: POST /, json: &j {a: *j}}¦3¦a YAML alias that holds itself
            base: http://h:1\\nbindings:\\n  cycle: uniform(1, 2)\\nops: {a: {weight: 1, request: GET /}}¦3¦not 'cycle'
            base: http://h:1\\nops:\\n  a: {weight: 1, request: GET /, headers: {Content-Type: a, content-type: \
            b}}¦3¦header content-type is given twice (as Content-Type)
            base: http://h:1\\nbindings:\\n  x: extract(names.csv, 30, 40)\\nops: {a: {weight: 1, request: GET \
            /}}¦3¦has 22 bytes, fewer than the shortest slice, 30
            base: http://h:1\\nbindings:\\n  x: uniform(1, 9) | permute(0)\\nops: {a: {weight: 1, request: GET \
            /}}¦3¦permute(n) needs n from 1 to 2^62, got 0
            """)
    void aBrokenFileIsOneLineNamingItsLine(String text, int line, String what) throws IOException {
        Files.writeString(dir.resolve("names.csv"), "first_name,last\nAda,L\n"); // for the bad-column case
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse(text.replace("\\n", "\n")));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("w.yaml:" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    /** A NUL or another character YAML refuses was reported at line 1 wherever it was. */
    @Test
    void aCharacterYamlRefusesIsReportedAtItsLine() {
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse(
                "base: http://h:1\nops:\n  a: {weight: 1, request: GET /\u0000x}\n"));
        assertEquals("w.yaml:3: not valid YAML: character U+0000 is not allowed", e.getMessage());
    }

    /** YAML 1.1's booleans in a JSON body: on was sent as false (only t... and y... were taken for true). */
    @Test
    void yamlBooleansInAJsonBodyAreSentAsTheyMean() {
        Workload w = parse("base: http://h:1\nops:\n  a: {weight: 1, request: POST /, json: {a: on, b: ON, c: yes, "
                + "d: off, e: No, f: TRUE, g: 0, h: -12_5}}\n");
        Rendered r = Rendered.of(w.ops().get(0).steps().get(0), new CycleState(0, 0), new Bytes(16));
        assertEquals("{\"a\":true,\"b\":true,\"c\":true,\"d\":false,\"e\":false,\"f\":true,\"g\":0,\"h\":-125}",
                new String(r.body(), StandardCharsets.UTF_8));
    }

    /** A file with a workload's keys but its ops misspelt is a workload, told so by its parser; a scenario is not. */
    @Test
    void aWorkloadWithoutOpsIsStillAWorkloadAndAScenarioIsNone() throws IOException {
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, "base: http://h:1\nbindings: {x: 'uniform(1, 2)'}\nop:\n  a: {weight: 1, request: GET /}\n");
        assertTrue(WorkloadParser.isWorkload(typo));
        WorkloadException e = assertThrows(WorkloadException.class, () -> WorkloadParser.parse(typo, Map.of()));
        assertTrue(e.getMessage().startsWith(typo + ":3: unknown key 'op' in a workload"), e.getMessage());
        Path scenario = dir.resolve("scenario.yaml");
        Files.writeString(scenario, "workload: shop.yaml\nphases:\n  - {duration: 1s, rate: 10}\n");
        assertFalse(WorkloadParser.isWorkload(scenario));
        e = assertThrows(WorkloadException.class, () -> WorkloadParser.parse(scenario, Map.of()));
        assertTrue(e.getMessage().startsWith(scenario + ":1: a scenario (it has phases), not a workload"),
                e.getMessage());
    }

    @Test
    void weightsThatReduceToAHugeWindowAreRefused() {
        WorkloadException e = assertThrows(WorkloadException.class, () -> parse("""
                base: http://h:1
                ops:
                  a: {weight: 1000003, request: GET /}
                  b: {weight: 1000033, request: GET /}
                """));
        assertTrue(e.getMessage().contains("rounder weights"), e.getMessage());
    }

    @Test
    void aFileOverTheBoundIsRefusedAfterTheBoundsBytesNotReadWhole() throws Exception {
        Path huge = dir.resolve("huge.yaml");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(3L << 30); // 3 GB, sparse: read whole it would not fit in an array
        }
        WorkloadException e = assertThrows(WorkloadException.class, () -> WorkloadParser.parse(huge, Map.of()));
        assertEquals(huge + ":1: over 4 MB; put data in csv files", e.getMessage());
        assertEquals(false, WorkloadParser.isWorkload(huge));
        if (Files.isReadable(Path.of("/dev/zero"))) {
            assertThrows(WorkloadException.class, () -> WorkloadParser.parse(Path.of("/dev/zero"), Map.of()));
        }
    }

    /** A case of {@link #aWorkloadAndASqlOneAreToldByTheirTopLevelKeysInAnyYamlSpelling}. */
    private record Kind(String text, boolean workload, boolean sql) {
    }

    @Test
    void aWorkloadAndASqlOneAreToldByTheirTopLevelKeysInAnyYamlSpelling() throws IOException {
        for (Kind k : new Kind[] {
                new Kind("base: http://127.0.0.1:1\n\"ops\": {a: {weight: 1, request: \"GET /\"}}\n", true, false),
                new Kind("base: http://127.0.0.1:1\nops : {a: {weight: 1, request: \"GET /\"}}\n", true, false),
                new Kind("{base: 'http://127.0.0.1:1', ops: {a: {weight: 1, request: GET /}}}\n", true, false),
                new Kind("driver: \"postgres\"\nurl: x\nops: {a: {sql: select 1}}\n", true, true),
                new Kind("\"driver\": postgresql  # a comment\nops: {}\n", true, true),
                // YAML only once its var is put in: told by its lines
                new Kind("vars: {n: 1}\nops: {a: {weight: ${n}, request: GET /}}\n", true, false),
                new Kind("phases:\n  - {duration: 1s, rate: 10}\n# ops: not a key\n", false, false),
                new Kind("description: 'ops: in a value'\nphases: []\n", false, false)}) {
            Path file = dir.resolve("kind.yaml");
            Files.writeString(file, k.text());
            assertEquals(k.workload(), WorkloadParser.isWorkload(file), k.text());
            assertEquals(k.sql(), SqlWorkloadParser.isSql(file), k.text());
        }
    }
}
