package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlAction;

import dev.pacer.engine.InputPropertiesTest;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Bodies of {@code POST /rate}, {@code /strictness} and {@code /threads}, and the console's lines,
 * generated: each becomes an action or is refused with one line (a 400 or an {@code error:} line).
 */
class ControlBodyPropertiesTest {

    @Provide
    Arbitrary<String> verbs() {
        return Arbitraries.of("rate", "strictness", "threads");
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.oneOf(
                Arbitraries.of("8000", "8k,0.5", "\"8k,0.5\"", "{\"rate\": \"8000,0.5\"}", "{\"threads\": 3}",
                        "{\"strictness\": 1}", "{\"value\": 2}", "{bad json", "[1]", "null", "\"\"", "", " 1\n", "-5",
                        "0", "1e9", "101", "{\"rate\": {\"x\": 1}}", "\"\\u0000\"", "2147483648"),
                Arbitraries.strings().all().ofMaxLength(30));
    }

    @Property(tries = InputPropertiesTest.TRIES)
    void aBodyBecomesAnActionOrIsRefusedOnOneLine(@ForAll("verbs") String verb, @ForAll("bodies") String body) {
        InputPropertiesTest.acceptedOrNamed(body, "", b -> ControlAction.of(verb, HttpControlServer.value(verb, b)));
    }

    @Property(tries = InputPropertiesTest.TRIES)
    void aConsoleLineBecomesAnActionOrIsRefusedOnOneLine(@ForAll("verbs") String verb, @ForAll("bodies") String value) {
        String line = verb + " " + value.replaceAll("\\R", " "); // the console reads line by line
        InputPropertiesTest.acceptedOrNamed(line, "", ControlAction::parse);
    }
}
