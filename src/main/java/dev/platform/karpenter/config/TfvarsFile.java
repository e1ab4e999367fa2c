package dev.platform.karpenter.config;

import com.bertramlabs.plugins.hcl4j.HCLParser;
import com.bertramlabs.plugins.hcl4j.HCLParserException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Parses one Terraform variables file (HCL) into its top-level assignments. */
public final class TfvarsFile {
    private TfvarsFile() {
    }

    public static Map<String, Object> parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e.getMessage());
        }
        return parse(text);
    }

    public static Map<String, Object> parse(String text) {
        try {
            return new HCLParser().parse(text);
        } catch (HCLParserException | IOException | RuntimeException e) {
            throw new ConfigException("not valid HCL: " + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(String message) {
        return message == null ? "parse error" : message.replaceAll("\\s+", " ").trim();
    }
}
