package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import dev.platform.karpenter.nodepools.manifest.NodePoolManifests;
import dev.platform.karpenter.nodepools.manifest.PoolSettingsExamples;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.CoreObjects;
import dev.platform.karpenter.testing.kubernetes.CrdValidator;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.TerraformReferences;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The app's own node-pools chart, as synthesized into each cluster's nodepools stack, linted and rendered by real
 * Helm with the release's values; every object it renders checked as the API server of that Karpenter release
 * would: custom resources against the release's CRDs (schema and CEL rules), everything else through its typed model.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class NodePoolsChartRenderTest {
    private static final String MARKER = "<tf:node-role-name>";

    /** One synthesized cluster's node-pools release, rendered. */
    record Pools(String tag, ClusterConfig config, Path stackDir, JsonNode release, List<JsonNode> rendered) {
        @Override
        public String toString() {
            return config.clusterName();
        }

        String values() {
            return release.path("values").get(0).asText();
        }

        Path chart() {
            return stackDir.resolve(release.path("chart").asText());
        }
    }

    private static final List<Pools> POOLS = new ArrayList<>();

    static {
        Map<ClusterConfig, String> configs = new LinkedHashMap<>();
        for (String tag : UpstreamCharts.SUPPORTED) {
            String suffix = tag.replace("v", "").replace('.', '-');
            configs.put(TestConfigs.configFor("pools-" + suffix, "us-west-2", UpstreamCharts.chartVersion(tag)), tag);
            configs.put(
                    TestConfigs.configFor(
                            "every-" + suffix,
                            "us-west-2",
                            UpstreamCharts.chartVersion(tag),
                            UpstreamCharts.V1ALPHA5.contains(tag)
                                    ? PoolSettingsExamples.EVERY_V0_SETTING
                                    : everyV1SettingWithCreatedRole(tag)),
                    tag);
        }
        // Upstream fields in every spec setting, through the chart as through the CRDs (README's examples).
        configs.put(
                TestConfigs.configFor(
                        "specs-newest",
                        "us-west-2",
                        UpstreamCharts.V1.get(UpstreamCharts.V1.size() - 1),
                        "node_pool_spec = { weight = 10, disruption = { budgets = [{ nodes = \"0\", schedule = \"0 9 * * mon-fri\", duration = \"8h\" }, { nodes = \"10%\" }] } }",
                        "node_class_spec = { kubelet = { maxPods = 110 }, metadataOptions = { httpPutResponseHopLimit = 2 } }",
                        "node_classes = [{ name = \"gpu\", ami_family = \"AL2023\", spec = { blockDeviceMappings = [{ deviceName = \"/dev/xvda\", ebs = { volumeSize = \"300Gi\", volumeType = \"gp3\" } }] } }]",
                        "node_pools = [{ name = \"gpu\", node_class = \"gpu\", spec = { limits = { \"nvidia.com/gpu\" = 16 } } }]"),
                UpstreamCharts.V1.get(UpstreamCharts.V1.size() - 1));
        // A pool on capacity reservations (CapacityReservationsTest, README), through the chart and the newest CRDs.
        configs.put(
                TestConfigs.configFor(
                        "reserved-newest", "us-west-2", UpstreamCharts.NEWEST, CapacityReservationsTest.RESERVED_POOL),
                UpstreamCharts.NEWEST);
        configs.put(
                TestConfigs.configFor(
                        "specs-seed",
                        "us-west-2",
                        "v0.31.5",
                        "node_pool_spec = { kubeletConfiguration = { maxPods = 110 } }",
                        "node_class_spec = { metadataOptions = { httpPutResponseHopLimit = 2 } }",
                        "node_classes = [{ name = \"gpu\" }]",
                        "node_pools = [{ name = \"gpu\", node_class = \"gpu\", spec = { weight = 5 } }]"),
                "v0.31.5");
        Synthesized synthesized = Synthesized.of(configs.keySet().toArray(ClusterConfig[]::new));
        configs.forEach((config, tag) -> {
            Path stackDir = synthesized.stackDir(config.stackName(NodePoolsStack.CONCERN));
            JsonNode release = Synthesized.onlyResource(
                    synthesized.stack(config.stackName(NodePoolsStack.CONCERN)), "helm_release");
            Pools pools = new Pools(tag, config, stackDir, release, List.of());
            POOLS.add(new Pools(
                    tag,
                    config,
                    stackDir,
                    release,
                    render(pools, TerraformReferences.replace(pools.values(), expression -> MARKER))));
        });
    }

    /**
     * With the node role made by the IAM stack: its name crosses stacks as a Terraform reference. v1beta1 families
     * take AL2; they and 1.0 (which keeps declaring v1beta1 node classes) take no AMI version (a v1 alias only).
     */
    private static String[] everyV1SettingWithCreatedRole(String tag) {
        List<String> lines = new ArrayList<>(List.of(PoolSettingsExamples.EVERY_V1_SETTING));
        lines.add("create_iam_role = true");
        if (UpstreamCharts.V1BETA1.contains(tag)) {
            lines.replaceAll(line -> line.startsWith("ami_family") ? "ami_family = \"AL2\"" : line);
        }
        if (UpstreamCharts.V1BETA1.contains(tag) || tag.startsWith("v1.0.")) {
            lines.removeIf(line -> line.startsWith("ami_version"));
        }
        return lines.toArray(String[]::new);
    }

    static List<Pools> pools() {
        return POOLS;
    }

    @Test
    void theChartPassesHelmLintStrict() {
        LintResult lint = HelmRender.lint(POOLS.get(0).chart());
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    /**
     * Helm renders the pools and node class (in its install order, by kind); the uninstall hook's objects, which
     * helm template leaves out like every hook, travel in the same values list after them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void helmRendersExactlyTheTypedManifestsAndTheValuesCarryTheUninstallHook(Pools pools) {
        ClusterConfig config = pools.config();
        NodePoolManifests manifests = NodePoolManifests.forApis(config.apis());
        List<JsonNode> typed = HelmRender.parse(
                ManifestYaml.documents(RenderedPools.of(config, MARKER).objects()));
        assertThat(sorted(pools.rendered())).isEqualTo(sorted(typed));
        boolean alpha = config.apis().rendered().contains(ApiGeneration.V1ALPHA5);
        assertThat(pools.rendered())
                .extracting(o -> o.path("kind").asText())
                .contains(
                        config.release().apiGeneration() == ApiGeneration.V1ALPHA5
                                ? new String[] {"Provisioner", "AWSNodeTemplate"}
                                : new String[] {"NodePool", "EC2NodeClass"});

        List<Object> hookObjects = manifests.uninstallHook(
                config.poolsAndClasses(), config.namespace(), NodePoolsStack.RELEASE_TIMEOUT_SECONDS);
        List<JsonNode> hook = hookObjects.isEmpty() ? List.of() : HelmRender.parse(ManifestYaml.documents(hookObjects));
        List<JsonNode> released = new ArrayList<>(typed);
        released.addAll(hook);
        assertThat(valuesManifests(pools, MARKER)).isEqualTo(released);
        assertThat(hook)
                .allSatisfy(o -> assertThat(
                                o.at("/metadata/annotations/helm.sh~1hook").asText())
                        .isEqualTo("pre-delete"));
        assertThat(hook.isEmpty()).isEqualTo(!alpha);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void thePlainKubectlFileHoldsTheRenderedPoolsAndNodeClassWithoutTheHook(Pools pools) {
        NodePoolManifests manifests = NodePoolManifests.forApis(pools.config().apis());
        String plain =
                read(pools.stackDir().resolve(PlainManifestFile.DIRECTORY).resolve(manifests.plainFileName()));
        List<JsonNode> expected = HelmRender.parse(
                ManifestYaml.documents(RenderedPools.of(pools.config(), NodePoolsStack.NODE_ROLE_PLACEHOLDER)
                        .objects()));
        List<JsonNode> rendered = pools.rendered().stream()
                .filter(o -> !o.at("/metadata/annotations/helm.sh~1hook").isTextual())
                .map(o -> HelmRender.parse(o.toString().replace(MARKER, NodePoolsStack.NODE_ROLE_PLACEHOLDER))
                        .get(0))
                .toList();
        assertThat(HelmRender.parse(plain)).isEqualTo(expected);
        assertThat(sorted(expected)).isEqualTo(sorted(rendered));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void theApiServerOfTheReleaseAcceptsEveryRenderedObject(Pools pools) {
        // Terraform resolves the node role's name before Helm sees it: a plausible one, since the CRD checks it.
        String role = "KarpenterNodeRole-" + pools.config().clusterName();
        List<JsonNode> objects =
                new ArrayList<>(render(pools, TerraformReferences.replace(pools.values(), expression -> role)));
        valuesManifests(pools, role).stream()
                .filter(o -> o.at("/metadata/annotations/helm.sh~1hook").isTextual())
                .forEach(objects::add);
        CrdValidator crds = UpstreamCharts.crdValidator(pools.tag());
        for (JsonNode object : objects) {
            if (crds.serves(object)) {
                crds.assertAccepted(object);
            } else {
                CoreObjects.assertDecodes(object);
            }
        }
        assertThat(objects.stream().filter(crds::serves)).hasSizeGreaterThanOrEqualTo(2);
        if (pools.config().clusterName().startsWith("specs-")) {
            assertThat(objects.stream().map(Object::toString))
                    .anyMatch(o -> o.contains("\"httpPutResponseHopLimit\":2"))
                    .anyMatch(o -> o.contains("\"maxPods\":110"))
                    .anyMatch(o -> o.contains("\"name\":\"gpu\""));
        }
        if (pools.config().clusterName().startsWith("reserved-")) {
            assertThat(objects.stream().map(Object::toString))
                    .anyMatch(
                            o -> o.contains("\"capacityReservationSelectorTerms\":[{\"id\":\"cr-0123456789abcdef0\"}"))
                    .anyMatch(o -> o.contains("\"values\":[\"reserved\",\"on-demand\"]"));
        }
        // What the every-setting clusters put on node classes reaches the CRD check: tags, and a pinned v1 alias.
        if (pools.config().clusterName().startsWith("every-")) {
            List<JsonNode> nodeClasses = objects.stream()
                    .filter(o -> o.path("kind").asText().matches("EC2NodeClass|AWSNodeTemplate"))
                    .toList();
            assertThat(nodeClasses)
                    .isNotEmpty()
                    .allSatisfy(c ->
                            assertThat(c.at("/spec/tags/cost-center").asText()).isEqualTo("42"));
            nodeClasses.stream()
                    .filter(c -> c.path("apiVersion").asText().equals("karpenter.k8s.aws/v1"))
                    .forEach(c -> assertThat(
                                    c.at("/spec/amiSelectorTerms/0/alias").asText())
                            .isEqualTo("al2023@v20240625"));
        }
    }

    /** The objects the release's values list, with Terraform references replaced by {@code resolved}. */
    private static List<JsonNode> valuesManifests(Pools pools, String resolved) {
        List<JsonNode> manifests = new ArrayList<>();
        HelmRender.parse(TerraformReferences.replace(pools.values(), expression -> resolved))
                .get(0)
                .path("manifests")
                .forEach(manifests::add);
        return manifests;
    }

    /** Objects by kind and name, as Helm's install order does not follow the values' order. */
    private static List<JsonNode> sorted(List<JsonNode> objects) {
        return objects.stream()
                .sorted(java.util.Comparator.comparing(HelmRender::describe))
                .toList();
    }

    private static List<JsonNode> render(Pools pools, String values) {
        return HelmRender.template(
                pools.chart(),
                pools.release().path("name").asText(),
                pools.release().path("namespace").asText(),
                values);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
