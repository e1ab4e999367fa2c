package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@KernelOnlyThroughSynthesized
class TfvarsFileTest {
    @TempDir
    Path dir;

    @Test
    void readsEveryLiteralOfTheGrammar() {
        Map<String, Object> values = TfvarsFile.parse("""
                # comment
                s = "a\\"b\\\\c\\n\\u00e9 $${x} %%{y} $$z" // trailing comment
                /* block
                   comment */ n = 1e3
                f = -1.5
                t = true
                nothing = null
                l = [ "x",
                  2,
                ]
                o = {
                  a = 1, "b.c/d" : [ { e = false } ]
                  g = {}
                }
                h = <<-EOT
                    first
                      second ${'$'}${literal}
                    EOT
                """.replace("${'$'}", "$"));
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("a", 1L);
        object.put("b.c/d", List.of(Map.of("e", false)));
        object.put("g", Map.of());
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("s", "a\"b\\c\né ${x} %{y} $$z");
        expected.put("n", 1000L);
        expected.put("f", -1.5);
        expected.put("t", true);
        expected.put("nothing", null);
        expected.put("l", List.of("x", 2L));
        expected.put("o", object);
        expected.put("h", "first\n  second ${literal}\n");
        assertThat(values).isEqualTo(expected);
        assertThat(values.keySet()).containsExactlyElementsOf(expected.keySet());
    }

    /** Every expression Terraform would evaluate, and everything that is not a value, is refused with its line. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "x = upper(\"eks\")                      | line 1 (x): only literal values are allowed (strings, numbers, true, false, null, lists, objects); found \"upper(\\\"eks\\\")\"",
                "x = 10 * 100                            | line 1 (x): only literal values are allowed: operators, calls and references are not evaluated; found \"* 100\"",
                "x = var.y                               | line 1 (x): only literal values are allowed (strings, numbers, true, false, null, lists, objects); found \"var.y\"",
                "x = \"${file(\"/etc/hostname\")}\"      | line 1 (x): templates (${ ... }) are not allowed in a value; write $${ for a literal ${",
                "x = \"%{ for a in [1] }y%{ endfor }\"   | line 1 (x): templates (%{ ... }) are not allowed in a value; write %%{ for a literal %{",
                "data \"http\" \"x\" { url = \"http://127.0.0.1\" } | line 1 (data): blocks are not allowed; write data = { ... }",
                "tags { a = \"b\" }                      | line 1 (tags): blocks are not allowed; write tags = { ... }",
                "`x = 1\nx = 2`                          | line 2: x is set twice; each setting may appear once",
                "`x = 1\nstray`                          | line 2 (stray): expected '=' after stray, found the end of the file",
                "x = 1 2                                 | line 1 (x): expected the end of the line after the value of x, found \"2\"",
                "x = { a = 1, a = 2 }                    | line 1: the key \"a\" appears twice in one object",
                "x = [1 2]                               | line 1 (x): expected ',' or ']' in a list, found \"2]\"",
                "x = \"open                              | line 1 (x): a string is not closed on its line",
                "x = \"\\q\"                             | line 1 (x): unknown escape \\q in a string; allowed: \\n \\r \\t \\\" \\\\ \\uNNNN",
                "x = 1e                                  | line 1 (x): a number's exponent needs digits, found \"e\"",
                "x = -y                                  | line 1 (x): only literal values are allowed; found \"-y\"",
                "x = [ for s in [\"a\"] : s ]            | line 1 (x): only literal values are allowed (strings, numbers, true, false, null, lists, objects); found \"for s in [\\\"a\\\"] : s ]\"",
                "x = true ? 1 : 2                        | line 1 (x): only literal values are allowed: operators, calls and references are not evaluated; found \"? 1 : 2\"",
                "x = [\"a\"][0]                          | line 1 (x): only literal values are allowed: operators, calls and references are not evaluated; found \"[0]\"",
                "`x = <<EOT\n${a}\nEOT`                  | line 2: templates are not allowed in a heredoc; write $${ or %%{ for a literal ${ or %{",
                "`x = <<EOT\nno end`                     | line 1: the heredoc <<EOT has no closing EOT",
                "/* open                                 | line 1: a /* comment is not closed",
                "x =                                     | line 1 (x): expected a value, found the end of the file",
            })
    void refusesWhatIsNotALiteral(String text, String message) {
        assertThatThrownBy(() -> TfvarsFile.parse(text))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }

    @Test
    void refusesNestingDeeperThanTheCap() {
        String deep = "x = " + "[".repeat(1000) + "]".repeat(1000);
        assertThatThrownBy(() -> TfvarsFile.parse(deep)).hasMessage("line 1 (x): values are nested more than 32 deep");
        String allowed = "x = " + "[".repeat(32) + "]".repeat(32);
        assertThat(TfvarsFile.parse(allowed)).containsKey("x");
    }

    @Test
    void refusesWhatIsNotARegularFileWithoutReadingIt() throws Exception {
        Path fifo = dir.resolve("fifo.tfvars");
        new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
        // A FIFO with no writer would block a read forever; the check looks at its type only.
        assertThatThrownBy(() -> TfvarsFile.parse(fifo)).hasMessage("is not a regular file; a tfvars file must be one");
        assertThatThrownBy(() -> TfvarsFile.parse(Path.of("/dev/zero")))
                .hasMessage("is not a regular file; a tfvars file must be one");
        assertThatThrownBy(() -> TfvarsFile.parse(dir)).hasMessage("is not a regular file; a tfvars file must be one");
    }

    @Test
    void refusesFilesOverOneMebibyteAndBytesThatAreNotUtf8() throws IOException {
        Path big = dir.resolve("big.tfvars");
        Files.writeString(big, "# " + "x".repeat(TfvarsFile.MAX_BYTES));
        assertThatThrownBy(() -> TfvarsFile.parse(big))
                .hasMessage("is " + (TfvarsFile.MAX_BYTES + 2) + " bytes; a tfvars file may have at most 1048576");
        Path latin1 = dir.resolve("latin1.tfvars");
        Files.write(latin1, new byte[] {'x', ' ', '=', ' ', '"', (byte) 0xe9, '"'});
        assertThatThrownBy(() -> TfvarsFile.parse(latin1)).hasMessage("is not UTF-8 text; tfvars files are UTF-8");
    }
}
