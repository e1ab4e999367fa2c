package dev.platform.karpenter.monitoring;

import dev.platform.karpenter.config.ClusterConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a cluster's synth output holds for monitoring, in {@code stacks/<stack>/monitoring/} next to the controller
 * stack's cdk.tf.json: the alert rules as a plain Prometheus rules file, for any Prometheus, and the Grafana
 * dashboards as JSON to import.
 *
 * @param stackName the controller stack's name
 * @param files     file name to content, in the order written
 */
public record MonitoringFiles(String stackName, Map<String, String> files) {
    public static final String DIRECTORY = "monitoring";
    public static final String RULES_FILE = "karpenter-rules.yaml";

    /** The files of {@code config}'s release. */
    public static MonitoringFiles of(ClusterConfig config, String stackName) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put(RULES_FILE, AlertRules.rulesFile(config.release()));
        for (Dashboards.Dashboard dashboard : Dashboards.of(config.release())) {
            files.put(dashboard.file(), Dashboards.json(dashboard, config.release()));
        }
        return new MonitoringFiles(stackName, Collections.unmodifiableMap(files));
    }

    /** Writes the files into the synthesized output {@code synthDir}, once cdktf has written the stack there. */
    public void writeInto(Path synthDir) throws IOException {
        Path dir = Files.createDirectories(
                synthDir.resolve("stacks").resolve(stackName).resolve(DIRECTORY));
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
    }
}
