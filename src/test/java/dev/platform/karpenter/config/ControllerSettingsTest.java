package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.parse;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ControllerSettingsTest {

    @Test
    void defaultsAreTheChartsExceptResourcesWhichAreUpstreamGuides() {
        ControllerSettings settings = config(V0).controller();

        assertThat(settings.stsRegionalEndpoints()).isFalse();
        assertThat(settings.replicas()).isEqualTo(2);
        assertThat(settings.resources().requests()).containsExactly(Map.entry("cpu", "1"), Map.entry("memory", "1Gi"));
        assertThat(settings.resources().limits()).containsExactly(Map.entry("cpu", "1"), Map.entry("memory", "1Gi"));
        assertThat(settings.tolerations()).isEmpty();
        assertThat(settings.affinity()).isEmpty();
    }

    @Test
    void resourcesSetReplaceTheDefaultEntirely() {
        ControllerSettings settings = config(
                        V0, "controller_resources = { requests = { cpu = \"500m\", memory = \"512Mi\" } }")
                .controller();

        assertThat(settings.resources().requests())
                .containsExactly(Map.entry("cpu", "500m"), Map.entry("memory", "512Mi"));
        assertThat(settings.resources().limits()).isEmpty();
    }

    @Test
    void tolerationValuesBecomeStrings() {
        ControllerSettings settings = config(
                        V0,
                        "controller_tolerations = ["
                                + "{ key = \"dedicated\", value = true, effect = \"NoSchedule\" },"
                                + "{ key = \"tier\", operator = \"Equal\", value = 2, effect = \"NoExecute\", tolerationSeconds = 300 },"
                                + "{ operator = \"Exists\" }]")
                .controller();

        assertThat(settings.tolerations())
                .containsExactly(
                        new Toleration(
                                Optional.of("dedicated"),
                                "Equal",
                                Optional.of("true"),
                                Optional.of("NoSchedule"),
                                Optional.empty()),
                        new Toleration(
                                Optional.of("tier"),
                                "Equal",
                                Optional.of("2"),
                                Optional.of("NoExecute"),
                                Optional.of(300L)),
                        new Toleration(
                                Optional.empty(), "Exists", Optional.empty(), Optional.empty(), Optional.empty()));
        assertThat(settings.tolerations().get(1).toMap())
                .containsExactly(
                        Map.entry("key", "tier"),
                        Map.entry("operator", "Equal"),
                        Map.entry("value", "2"),
                        Map.entry("effect", "NoExecute"),
                        Map.entry("tolerationSeconds", 300L));
    }

    @Test
    void resourceQuantitiesBecomeStrings() {
        ControllerResources resources = config(
                        V0,
                        "controller_resources = { requests = { cpu = 0.5, memory = \"512Mi\" }, limits = { cpu = 1, memory = \"1Gi\" } }")
                .controller()
                .resources();

        assertThat(resources.requests()).containsExactly(Map.entry("cpu", "0.5"), Map.entry("memory", "512Mi"));
        assertThat(resources.limits()).containsExactly(Map.entry("cpu", "1"), Map.entry("memory", "1Gi"));
    }

    @Test
    void affinityKeepsItsStructureWithWholeNumbersAsIntegers() {
        Map<String, Object> affinity = config(
                        V0,
                        "controller_affinity = { podAntiAffinity = {"
                                + " preferredDuringSchedulingIgnoredDuringExecution = [{ weight = 100,"
                                + " podAffinityTerm = { topologyKey = \"kubernetes.io/hostname\" } }] } }")
                .controller()
                .affinity();

        assertThat(affinity)
                .isEqualTo(Map.of(
                        "podAntiAffinity",
                        Map.of(
                                "preferredDuringSchedulingIgnoredDuringExecution",
                                List.of(Map.of(
                                        "weight",
                                        100L,
                                        "podAffinityTerm",
                                        Map.of("topologyKey", "kubernetes.io/hostname"))))));
    }

    /** A label selector's matchLabels is keyed by label keys, which hold dots and slashes. */
    @Test
    void aLabelSelectorKeepsItsLabelKeys() {
        Map<String, Object> affinity = config(
                        V0,
                        "controller_affinity = { podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution = [{"
                                + " topologyKey = \"kubernetes.io/hostname\", labelSelector = { matchLabels = {"
                                + " \"app.kubernetes.io/name\" = \"karpenter\" } } }] } }")
                .controller()
                .affinity();

        assertThat(affinity.toString()).contains("matchLabels={app.kubernetes.io/name=karpenter}");
        assertThatThrownBy(
                        () -> parse(
                                tfvars(
                                        V0,
                                        "controller_affinity = { podAffinity = { requiredDuringSchedulingIgnoredDuringExecution = [{"
                                                + " topologyKey = \"x\", labelSelector = { matchLabels = { \"a b\" = \"c\" } } }] } }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("keys must be label keys");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void rejectsBadInputWithAOneLineMessage(String name, String line, String message) {
        assertThatThrownBy(() -> parse(tfvars(V0, line)))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(
                        "zero replicas", "controller_replicas = 0", "controller_replicas must be at least 1, got 0"),
                Arguments.of(
                        "toleration typo",
                        "controller_tolerations = [{ key = \"a\", efect = \"NoSchedule\" }]",
                        "controller_tolerations[0].efect is not a toleration field; allowed: key, operator, value, effect, tolerationSeconds"),
                Arguments.of(
                        "bad operator",
                        "controller_tolerations = [{ key = \"a\", operator = \"In\" }]",
                        "controller_tolerations[0].operator must be \"Equal\" or \"Exists\", got \"In\""),
                Arguments.of(
                        "value with Exists",
                        "controller_tolerations = [{ key = \"a\", operator = \"Exists\", value = \"x\" }]",
                        "controller_tolerations[0].value must be omitted when operator is \"Exists\""),
                Arguments.of(
                        "no key with Equal",
                        "controller_tolerations = [{ value = \"x\" }]",
                        "controller_tolerations[0].operator must be \"Exists\" when key is omitted (a toleration of every taint)"),
                Arguments.of(
                        "bad effect",
                        "controller_tolerations = [{ key = \"a\", effect = \"NoScheduled\" }]",
                        "controller_tolerations[0].effect must be one of NoSchedule, PreferNoSchedule, NoExecute, got \"NoScheduled\""),
                Arguments.of(
                        "seconds without NoExecute",
                        "controller_tolerations = [{ key = \"a\", tolerationSeconds = 60 }]",
                        "controller_tolerations[0].tolerationSeconds needs effect = \"NoExecute\""),
                Arguments.of(
                        "key not a string",
                        "controller_tolerations = [{ key = true }]",
                        "controller_tolerations[0].key must be a string, got true"),
                Arguments.of(
                        "toleration not an object",
                        "controller_tolerations = [\"CriticalAddonsOnly\"]",
                        "controller_tolerations must be an object, got the string \"CriticalAddonsOnly\""),
                Arguments.of(
                        "resources typo",
                        "controller_resources = { request = { cpu = \"1\" } }",
                        "controller_resources.request is not allowed; controller_resources takes requests and limits"),
                Arguments.of(
                        "bad quantity",
                        "controller_resources = { limits = { memory = \"1 GB\" } }",
                        "controller_resources.limits.memory must be a Kubernetes quantity greater than zero such as \"500m\", \"1\" or \"1Gi\", got \"1 GB\""),
                Arguments.of(
                        "boolean quantity",
                        "controller_resources = { limits = { cpu = true } }",
                        "controller_resources.limits.cpu must be a Kubernetes quantity greater than zero such as \"500m\", \"1\" or \"1Gi\", got \"true\""),
                Arguments.of(
                        "affinity kind",
                        "controller_affinity = { nodeSelector = {} }",
                        "controller_affinity.nodeSelector is not an affinity kind; allowed: nodeAffinity, podAffinity, podAntiAffinity"));
    }
}
