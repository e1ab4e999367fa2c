package dev.platform.karpenter.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One 0.x and one 1.x cluster that set every controller setting, synthesized once for all controller test classes.
 */
final class ControllerFixtures {
    static final String[] EVERY_CONTROLLER_SETTING = {
        "sts_regional_endpoints = true",
        "controller_replicas = 3",
        "controller_resources = { requests = { cpu = 1, memory = \"1Gi\" }, limits = { cpu = 1, memory = \"1Gi\" } }",
        "controller_tolerations = [{ key = \"CriticalAddonsOnly\", operator = \"Exists\" },"
                + " { key = \"dedicated\", value = true, effect = \"NoSchedule\" }]",
        "controller_affinity = { nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms = ["
                + "{ matchExpressions = [{ key = \"eks.amazonaws.com/nodegroup\", operator = \"In\", values = [\"default\"] }] }] } } }",
    };

    static final ClusterConfig V0_CONFIG = TestConfigs.config(TestConfigs.V0, EVERY_CONTROLLER_SETTING);
    static final ClusterConfig V1_CONFIG = TestConfigs.config(TestConfigs.V1, concat(EVERY_CONTROLLER_SETTING,
            "karpenter_namespace = \"kube-system\"", "karpenter_service_account = \"karpenter-controller\""));

    static final ProducerStacks V0 = ProducerStacks.synthesize(V0_CONFIG);
    static final ProducerStacks V1 = ProducerStacks.synthesize(V1_CONFIG);

    static final String STACK = "demo-karpenter";
    private static final YAMLMapper YAML = new YAMLMapper();

    private ControllerFixtures() {
    }

    static JsonNode release(ProducerStacks synthesized, String address) {
        JsonNode release = synthesized.stack(STACK).path("resource").path("helm_release").path(address);
        if (release.isMissingNode()) {
            throw new AssertionError("no helm_release." + address + " in " + STACK);
        }
        return release;
    }

    /** The controller release's values, parsed from the one YAML document it carries. */
    static JsonNode values(ProducerStacks synthesized) {
        JsonNode values = release(synthesized, "karpenter").path("values");
        if (values.size() != 1) {
            throw new AssertionError("expected one values document, got " + values);
        }
        return parseYaml(values.get(0).asText());
    }

    static JsonNode parseYaml(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
