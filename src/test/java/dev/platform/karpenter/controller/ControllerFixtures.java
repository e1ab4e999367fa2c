package dev.platform.karpenter.controller;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.stream.Stream;

/** One 0.x and one 1.x cluster "demo" that set every controller setting, for the controller test classes. */
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

    static final String STACK = "demo-karpenter";

    private ControllerFixtures() {}

    /** The 0.x cluster, synthesized now: register it as an extension in the test class. */
    static Synthesized v0() {
        return Synthesized.app()
                .cluster("demo", TestConfigs.V0, EVERY_CONTROLLER_SETTING)
                .synthesize();
    }

    /** The 1.x cluster, with its own namespace and service account. */
    static Synthesized v1() {
        String[] settings = Stream.concat(
                        Stream.of(EVERY_CONTROLLER_SETTING),
                        Stream.of(
                                "karpenter_namespace = \"kube-system\"",
                                "karpenter_service_account = \"karpenter-controller\""))
                .toArray(String[]::new);
        return Synthesized.app().cluster("demo", TestConfigs.V1, settings).synthesize();
    }

    static JsonNode release(Synthesized synthesized, String address) {
        JsonNode release =
                synthesized.stack(STACK).path("resource").path("helm_release").path(address);
        if (release.isMissingNode()) {
            throw new AssertionError("no helm_release." + address + " in " + STACK);
        }
        return release;
    }

    /** The controller release's values, parsed from the one YAML document it carries. */
    static JsonNode values(Synthesized synthesized) {
        JsonNode values = release(synthesized, "karpenter").path("values");
        if (values.size() != 1) {
            throw new AssertionError("expected one values document, got " + values);
        }
        return Json.yaml(values.get(0).asText());
    }
}
