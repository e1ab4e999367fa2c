package dev.platform.karpenter.config;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one Terraform variables file as data: the literal subset of Terraform's tfvars grammar and nothing else.
 *
 * <p>Accepted: {@code name = value} lines; strings with HCL's escapes ({@code \n \t \" \\ \\uNNNN}, and {@code $${}
 * / {@code %%{} for a literal {@code ${} / {@code %{}); heredocs ({@code <<EOT} and {@code <<-EOT}); numbers with
 * sign, fraction and exponent; {@code true}, {@code false}; {@code null}, which means "use the default"; lists;
 * objects; comments ({@code #}, {@code //}, {@code /* *}{@code /}). Everything Terraform would evaluate (functions,
 * operators, references, template interpolations and directives) and everything that is not a value (blocks,
 * duplicate keys, stray lines) is an error naming the line: nothing in the file is executed and reading it does no
 * I/O beyond the file. A hand-written reader rather than the hcl4j library because hcl4j evaluates while it parses
 * (functions, operators, even {@code data "http"} requests) and exposes no hook to refuse a node before that.
 *
 * <p>Numbers: whole numbers become Long (so {@code 1e3} is 1000), others Double.
 */
public final class TfvarsFile {
    /** Configuration is a few KiB; anything larger is a wrong file. */
    public static final int MAX_BYTES = 1 << 20;
    /** Deeper than any setting needs (affinity is about 8), shallow enough for a recursive reader. */
    public static final int MAX_DEPTH = 32;

    private final String text;
    private int pos;
    private int line = 1;
    private int depth;
    /** The setting being read, for messages. */
    private String setting = "";

    private TfvarsFile(String text) {
        this.text = text;
    }

    /** Reads a regular file of at most {@link #MAX_BYTES}; FIFOs, devices and directories are refused unread. */
    public static Map<String, Object> parse(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new ConfigException("cannot read the file ("
                    + e.getClass()
                            .getSimpleName()
                            .replace("Exception", "")
                            .replaceAll("([a-z])([A-Z])", "$1 $2")
                            .toLowerCase()
                    + ")");
        }
        if (!attributes.isRegularFile()) {
            throw new ConfigException("is not a regular file; a tfvars file must be one");
        }
        if (attributes.size() > MAX_BYTES) {
            throw new ConfigException(
                    "is " + attributes.size() + " bytes; a tfvars file may have at most " + MAX_BYTES);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            // Bounded even if the file grows after the size check.
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new ConfigException("cannot read the file");
        }
        if (bytes.length > MAX_BYTES) {
            throw new ConfigException("is larger than " + MAX_BYTES + " bytes; a tfvars file may have at most that");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ConfigException("is not UTF-8 text; tfvars files are UTF-8");
        }
        return parse(text);
    }

    /** The top-level assignments of tfvars text, in file order; a {@code null} value means "use the default". */
    public static Map<String, Object> parse(String text) {
        return new TfvarsFile(text.startsWith("\uFEFF") ? text.substring(1) : text).file();
    }

    private Map<String, Object> file() {
        Map<String, Object> values = new LinkedHashMap<>();
        while (true) {
            skipSpace(true);
            if (pos >= text.length()) {
                return Collections.unmodifiableMap(values);
            }
            int keyLine = line;
            if (!isIdentStart(peek())) {
                throw error("expected a setting name (name = value), found " + found());
            }
            String key = identifier();
            setting = key;
            skipSpace(false);
            if (peek() == '{' || peek() == '"') {
                throw error("blocks are not allowed; write " + key + " = { ... }");
            }
            if (peek() != '=') {
                throw error("expected '=' after " + key + ", found " + found());
            }
            pos++;
            Object value = value();
            if (values.containsKey(key)) {
                throw new ConfigException(
                        "line " + keyLine + ": " + key + " is set twice; each setting may appear once");
            }
            values.put(key, value);
            endOfLine("after the value of " + key);
        }
    }

    private Object value() {
        skipSpace(false);
        if (pos >= text.length()) {
            throw error("expected a value, found the end of the file");
        }
        char c = peek();
        Object value;
        if (c == '"') {
            value = quoted();
        } else if (c == '<' && text.startsWith("<<", pos)) {
            value = heredoc();
        } else if (c == '[' || c == '{') {
            if (++depth > MAX_DEPTH) {
                throw error("values are nested more than " + MAX_DEPTH + " deep");
            }
            value = c == '[' ? list() : object();
            depth--;
        } else if (c == '-' || isDigit(c)) {
            value = number();
        } else if (isIdentStart(c)) {
            int start = pos;
            String word = identifier();
            value = switch (word) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                case "null" -> null;
                default -> {
                    pos = start;
                    throw error(
                            "only literal values are allowed (strings, numbers, true, false, null, lists, objects); "
                                    + "found " + found());
                }
            };
        } else {
            throw error("expected a value, found " + found());
        }
        rejectOperator();
        return value;
    }

    /** An operator, call, index or attribute access after a value would make it an expression. */
    private void rejectOperator() {
        skipSpace(false);
        if (pos < text.length()
                && "+-*/%<>!&|?.([".indexOf(peek()) >= 0
                && !text.startsWith("//", pos)
                && !text.startsWith("/*", pos)) {
            throw error("only literal values are allowed: operators, calls and references are not evaluated; found "
                    + found());
        }
    }

    private List<Object> list() {
        pos++;
        List<Object> items = new ArrayList<>();
        while (true) {
            skipSpace(true);
            if (peek() == ']') {
                pos++;
                return Collections.unmodifiableList(items);
            }
            items.add(value());
            skipSpace(true);
            if (peek() == ',') {
                pos++;
            } else if (peek() != ']') {
                throw error("expected ',' or ']' in a list, found " + found());
            }
        }
    }

    private Map<String, Object> object() {
        pos++;
        Map<String, Object> fields = new LinkedHashMap<>();
        while (true) {
            skipSpace(true);
            if (peek() == '}') {
                pos++;
                return Collections.unmodifiableMap(fields);
            }
            int keyLine = line;
            String key;
            if (peek() == '"') {
                key = quoted();
            } else if (isIdentStart(peek())) {
                key = identifier();
            } else {
                throw error("expected a key in an object, found " + found());
            }
            skipSpace(false);
            if (peek() != '=' && peek() != ':') {
                throw error("expected '=' after the key " + ConfigException.quote(key) + ", found " + found());
            }
            pos++;
            Object value = value();
            if (fields.containsKey(key)) {
                throw new ConfigException(
                        "line " + keyLine + ": the key " + ConfigException.quote(key) + " appears twice in one object");
            }
            fields.put(key, value);
            skipSpace(false);
            if (peek() == ',') {
                pos++;
            } else if (peek() != '}') {
                endOfLine("between the fields of an object");
            }
        }
    }

    private String quoted() {
        int startLine = line;
        pos++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length() || peek() == '\n') {
                line = startLine;
                throw error("a string is not closed on its line");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                escape(out);
            } else if ((c == '$' || c == '%') && peek() == '{') {
                throw error("templates (" + c + "{ ... }) are not allowed in a value; write " + c + c
                        + "{ for a literal " + c + "{");
            } else if ((c == '$' || c == '%') && peek() == c && text.startsWith("{", pos + 1)) {
                out.append(c).append('{');
                pos += 2;
            } else {
                out.append(c);
            }
        }
    }

    private void escape(StringBuilder out) {
        if (pos >= text.length()) {
            throw error("a string ends with a lone backslash");
        }
        char c = text.charAt(pos++);
        switch (c) {
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case '"' -> out.append('"');
            case '\\' -> out.append('\\');
            case 'u' -> out.appendCodePoint(hex(4));
            case 'U' -> out.appendCodePoint(hex(8));
            default -> throw error("unknown escape \\" + c + " in a string; allowed: \\n \\r \\t \\\" \\\\ \\uNNNN");
        }
    }

    private int hex(int digits) {
        if (pos + digits > text.length() || !text.substring(pos, pos + digits).matches("[0-9A-Fa-f]+")) {
            throw error("\\u must be followed by " + digits + " hexadecimal digits");
        }
        int codePoint = Integer.parseInt(text.substring(pos, pos + digits), 16);
        pos += digits;
        if (!Character.isValidCodePoint(codePoint) || codePoint >= 0xD800 && codePoint <= 0xDFFF) {
            throw error("\\U" + Integer.toHexString(codePoint) + " is not a Unicode character");
        }
        return codePoint;
    }

    /** {@code <<EOT} or {@code <<-EOT} (indentation removed) up to a line holding only the marker. */
    private String heredoc() {
        int startLine = line;
        pos += 2;
        boolean indented = peek() == '-';
        if (indented) {
            pos++;
        }
        if (!isIdentStart(peek())) {
            throw error("a heredoc needs a marker such as <<EOT");
        }
        String marker = identifier();
        if (peek() != '\n') {
            throw error("a heredoc's text starts on the line after <<" + marker);
        }
        pos++;
        line++;
        List<String> lines = new ArrayList<>();
        while (true) {
            if (pos >= text.length()) {
                throw new ConfigException(
                        "line " + startLine + ": the heredoc <<" + marker + " has no closing " + marker);
            }
            int end = text.indexOf('\n', pos);
            String current = text.substring(pos, end < 0 ? text.length() : end);
            pos = end < 0 ? text.length() : end;
            if (current.strip().equals(marker)) {
                break;
            }
            pos = end < 0 ? pos : pos + 1;
            line++;
            String unescaped = current.replace("$${", "").replace("%%{", "");
            if (unescaped.contains("${") || unescaped.contains("%{")) {
                throw new ConfigException("line " + (line - 1) + ": templates are not allowed in a heredoc; "
                        + "write $${ or %%{ for a literal ${ or %{");
            }
            lines.add(current.replace("$${", "${").replace("%%{", "%{"));
        }
        if (indented) {
            int indent = lines.stream()
                    .filter(l -> !l.isBlank())
                    .mapToInt(l -> l.length() - l.stripLeading().length())
                    .min()
                    .orElse(0);
            lines.replaceAll(l -> l.length() >= indent ? l.substring(indent) : l.strip());
        }
        return lines.stream().map(l -> l + "\n").reduce("", String::concat);
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digitsStart = pos;
        while (isDigit(peek())) {
            pos++;
        }
        if (pos == digitsStart) {
            pos = start;
            throw error("only literal values are allowed; found " + found());
        }
        if (peek() == '.' && isDigit(peekAt(pos + 1))) {
            pos++;
            while (isDigit(peek())) {
                pos++;
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            int exponent = pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                pos = exponent;
                throw error("a number's exponent needs digits, found " + found());
            }
            while (isDigit(peek())) {
                pos++;
            }
        }
        if (isIdentStart(peek())) {
            throw error("a number is followed by " + found());
        }
        if (pos - start > 40) {
            throw error("a number may have at most 40 characters");
        }
        BigDecimal number = new BigDecimal(text.substring(start, pos));
        if (number.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 && number.scale() <= 0
                || Math.abs(number.scale()) > 400) {
            throw error("the number " + ConfigException.quote(text.substring(start, pos)) + " is out of range");
        }
        BigDecimal whole = number.stripTrailingZeros();
        if (whole.scale() <= 0 && whole.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            return whole.longValueExact();
        }
        double value = number.doubleValue();
        if (Double.isInfinite(value)) {
            throw error("the number " + ConfigException.quote(text.substring(start, pos)) + " is out of range");
        }
        return value;
    }

    private String identifier() {
        int start = pos;
        while (pos < text.length() && (isIdentStart(peek()) || isDigit(peek()) || peek() == '-')) {
            pos++;
        }
        return text.substring(start, pos);
    }

    /** Spaces and comments; newlines too when {@code newlines}. */
    private void skipSpace(boolean newlines) {
        while (pos < text.length()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '\n' && newlines) {
                pos++;
                line++;
            } else if (c == '#' || text.startsWith("//", pos)) {
                while (pos < text.length() && peek() != '\n') {
                    pos++;
                }
            } else if (text.startsWith("/*", pos)) {
                int startLine = line;
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw new ConfigException("line " + startLine + ": a /* comment is not closed");
                }
                line += (int) text.substring(pos, end)
                        .chars()
                        .filter(ch -> ch == '\n')
                        .count();
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private void endOfLine(String where) {
        skipSpace(false);
        if (pos < text.length() && peek() != '\n') {
            throw error("expected the end of the line " + where + ", found " + found());
        }
    }

    private ConfigException error(String message) {
        return new ConfigException("line " + line + (setting.isEmpty() ? "" : " (" + setting + ")") + ": " + message);
    }

    /** What stands at the current position, quoted and short. */
    private String found() {
        if (pos >= text.length()) {
            return "the end of the file";
        }
        int end = text.indexOf('\n', pos);
        return ConfigException.quote(
                text.substring(pos, end < 0 ? text.length() : end).strip());
    }

    private char peek() {
        return peekAt(pos);
    }

    private char peekAt(int index) {
        return index < text.length() ? text.charAt(index) : '\0';
    }

    private static boolean isIdentStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
