package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerChartRenderTest.controller;
import static dev.platform.karpenter.controller.ControllerChartRenderTest.deployment;
import static dev.platform.karpenter.controller.ControllerChartRenderTest.env;
import static dev.platform.karpenter.testing.Json.yaml;
import static dev.platform.karpenter.testing.kubernetes.HelmRender.find;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.RenderedControllerReleases.Cluster;
import dev.platform.karpenter.nodepools.CapacityReservationsTest;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Docs;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.CoreObjects;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's controller_values and chart_repository examples, synthesized and rendered through the real upstream
 * chart with Helm: each value reaches the controller's Deployment or settings, on the newest release and on the
 * seed's 0.31 generation (settings.aws.* there).
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class ControllerValuesRenderTest {
    static final String NEWEST = UpstreamCharts.V1.get(UpstreamCharts.V1.size() - 1);
    static final String SEED_GENERATION = "v0.31.5";

    /** README: spot-to-spot consolidation with debug logging. */
    static final String SPOT_TO_SPOT = """
            controller_values = {
              logLevel = "debug"
              settings = { featureGates = { spotToSpotConsolidation = true } }
            }""";

    /** README: metrics scraped by annotation, on a port of your choice. */
    static final String METRICS = """
            controller_values = {
              podAnnotations = { "prometheus.io/scrape" = "true", "prometheus.io/port" = "9090" }
              controller     = { metrics = { port = 9090 } }
            }""";

    /** README: both charts and the controller image from a pull-through cache of ECR Public. */
    static final String PRIVATE_REGISTRY = """
            chart_repository = "oci://123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter"
            controller_values = {
              controller = { image = { repository = "123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter/controller" } }
            }""";

    /** README: the seed's 0.31 generation, whose AWS settings sit under settings.aws. */
    static final String SEED_SETTINGS = """
            controller_values = {
              logLevel = "debug"
              settings = {
                aws          = { enablePodENI = true, vmMemoryOverheadPercent = 0.1 }
                featureGates = { driftEnabled = true }
              }
            }""";

    /** controller_values over the typed settings: the merge decides, and null drops the chart's default. */
    static final String OVER_TYPED_SETTINGS = """
            controller_replicas = 3
            controller_values = {
              replicas     = 1
              nodeSelector = null
              tolerations  = [{ key = "dedicated", operator = "Exists" }]
              affinity = {
                nodeAffinity = {
                  requiredDuringSchedulingIgnoredDuringExecution = {
                    nodeSelectorTerms = [{ matchExpressions = [{ key = "kubernetes.io/arch", operator = "In", values = ["arm64"] }] }]
                  }
                }
              }
            }""";

    /** The newest chart family whose ReservedCapacity gate is off by default. */
    static final String GATE_OFF = UpstreamCharts.V1.stream()
            .filter(tag -> {
                KarpenterRelease release = KarpenterRelease.of(tag);
                return release.hasCapacityReservations() && !release.reservedCapacityOnByDefault();
            })
            .reduce((first, second) -> second)
            .orElseThrow();

    private static final Map<String, Cluster> CLUSTERS = new LinkedHashMap<>();
    private static final Map<String, List<JsonNode>> RENDERED = new LinkedHashMap<>();

    static {
        Map<String, ClusterConfig> configs = new LinkedHashMap<>();
        configs.put("spot", config("spot", NEWEST, SPOT_TO_SPOT));
        configs.put("metrics", config("metrics", NEWEST, METRICS));
        configs.put("private", config("private", NEWEST, PRIVATE_REGISTRY));
        configs.put("typed", config("typed", NEWEST, OVER_TYPED_SETTINGS));
        configs.put("reserved", config("reserved", NEWEST, String.join("\n", CapacityReservationsTest.RESERVED_POOL)));
        configs.put(
                "reserved-gate-off",
                config("reserved-gate-off", GATE_OFF, String.join("\n", CapacityReservationsTest.RESERVED_POOL)));
        configs.put("gate-off", config("gate-off", GATE_OFF, "capacity_types = [\"on-demand\"]"));
        configs.put("seed", config("seed", SEED_GENERATION, SEED_SETTINGS));
        configs.put("seed-metrics", config("seed-metrics", SEED_GENERATION, METRICS));
        configs.put("seed-private", config("seed-private", SEED_GENERATION, PRIVATE_REGISTRY));
        Synthesized synthesized = Synthesized.of(configs.values().toArray(ClusterConfig[]::new));
        configs.forEach((name, config) -> {
            Cluster cluster = new Cluster(
                    name.startsWith("seed") ? SEED_GENERATION : name.endsWith("gate-off") ? GATE_OFF : NEWEST,
                    config.clusterName(),
                    config,
                    synthesized.stack(config.stackName(ControllerStack.CONCERN)),
                    synthesized);
            CLUSTERS.put(name, cluster);
            RENDERED.put(name, cluster.renderController(cluster.values()));
        });
    }

    private static ClusterConfig config(String name, String tag, String settings) {
        return TestConfigs.configFor(name, "us-west-2", UpstreamCharts.chartVersion(tag), settings.split("\n"));
    }

    @Test
    void spotToSpotConsolidationAndDebugLoggingReachTheController() {
        Map<String, String> env = env(controller(RENDERED.get("spot")));

        assertThat(env.get("LOG_LEVEL")).isEqualTo("debug");
        assertThat(env.get("FEATURE_GATES")).contains("SpotToSpotConsolidation=true");
        // Merged into the chart's feature gates: the others keep their defaults.
        assertThat(env.get("FEATURE_GATES")).contains("ReservedCapacity=true", "NodeRepair=false");
        // And into what the app sets beside them.
        assertThat(env.get("CLUSTER_NAME")).isEqualTo("spot");
    }

    /** A pool on capacity reservations turns the ReservedCapacity gate on where the chart has it off. */
    @Test
    void aReservedPoolRunsTheControllerWithTheReservedCapacityGateOn() {
        assertThat(env(controller(RENDERED.get("reserved"))).get("FEATURE_GATES"))
                .contains("ReservedCapacity=true");
        assertThat(env(controller(RENDERED.get("reserved-gate-off"))).get("FEATURE_GATES"))
                .as(GATE_OFF)
                .contains("ReservedCapacity=true", "SpotToSpotConsolidation=false");
        assertThat(env(controller(RENDERED.get("gate-off"))).get("FEATURE_GATES"))
                .as("no pool on reservations: the chart's default")
                .contains("ReservedCapacity=false");
    }

    @Test
    void metricsAnnotationsAndPortReachThePodAndItsServiceOnBothGenerations() {
        for (String name : List.of("metrics", "seed-metrics")) {
            List<JsonNode> objects = RENDERED.get(name);
            JsonNode pod = deployment(objects).at("/spec/template");
            JsonNode annotations = pod.at("/metadata/annotations");
            assertThat(annotations.path("prometheus.io/scrape").textValue())
                    .as(name)
                    .isEqualTo("true");
            assertThat(annotations.path("prometheus.io/port").textValue())
                    .as(name)
                    .isEqualTo("9090");
            assertThat(controller(objects).path("ports").findValuesAsText("containerPort"))
                    .as(name)
                    .contains("9090");
            assertThat(env(controller(objects)).get("METRICS_PORT")).as(name).isEqualTo("9090");
            assertThat(find(objects, "Service", "karpenter").at("/spec/ports").findValuesAsText("port"))
                    .as(name)
                    .contains("9090");
        }
    }

    @Test
    void aPrivateRegistryServesTheChartsAndTheImageKeepsItsTagAndDigest() {
        String repository = "123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter/controller";
        for (String name : List.of("private", "seed-private")) {
            Cluster cluster = CLUSTERS.get(name);
            for (String release : List.of("karpenter", "karpenter_crd")) {
                assertThat(cluster.release(release).path("repository").asText())
                        .isEqualTo("oci://123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter");
            }
            String image = controller(RENDERED.get(name)).path("image").asText();
            assertThat(image).as(name).matches(repository.replace(".", "\\.") + ":[^@]+@sha256:[0-9a-f]{64}");
        }
    }

    @Test
    void theSeedGenerationTakesItsAwsSettingsAndFeatureGatesAndLogLevel() {
        List<JsonNode> objects = RENDERED.get("seed");
        JsonNode settings =
                find(objects, "ConfigMap", "karpenter-global-settings").path("data");

        assertThat(settings.path("aws.enablePodENI").asText()).isEqualTo("true");
        assertThat(settings.path("aws.vmMemoryOverheadPercent").asText()).isEqualTo("0.1");
        assertThat(settings.path("featureGates.driftEnabled").asText()).isEqualTo("true");
        // Merged beside what the app sets under settings.aws.
        assertThat(settings.path("aws.clusterName").asText()).isEqualTo("seed");
        String logging = find(objects, "ConfigMap", "config-logging")
                .path("data")
                .path("zap-logger-config")
                .asText();
        assertThat(yaml(logging).path("level").asText()).isEqualTo("debug");
    }

    @Test
    void controllerValuesOverrideTheTypedSettingsAndNullDropsTheChartsDefault() {
        JsonNode pod = deployment(RENDERED.get("typed")).at("/spec/template/spec");

        assertThat(deployment(RENDERED.get("typed")).at("/spec/replicas").asInt())
                .isEqualTo(1);
        assertThat(pod.has("nodeSelector")).isFalse();
        assertThat(pod.path("tolerations")).isEqualTo(yaml("[{key: dedicated, operator: Exists}]"));
        // Required node terms written in controller_values keep the controller off Karpenter's nodes too.
        assertThat(pod.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms"))
                .isEqualTo(yaml("""
                        - matchExpressions:
                            - {key: kubernetes.io/arch, operator: In, values: [arm64]}
                            - {key: karpenter.sh/nodepool, operator: DoesNotExist}
                        """));
    }

    @Test
    void everyRenderedObjectDecodesStrictlyAsItsKubernetesType() {
        RENDERED.forEach((name, objects) -> {
            for (JsonNode object : objects) {
                assertThat(CoreObjects.errors(object))
                        .as(name + ": " + HelmRender.describe(object))
                        .isEmpty();
            }
        });
    }

    @Test
    void theReadmeShowsTheseExamplesAsTested() throws IOException {
        String readme = Docs.all();
        Stream.of(SPOT_TO_SPOT, METRICS, PRIVATE_REGISTRY, SEED_SETTINGS)
                .forEach(example -> assertThat(readme).contains(example));
    }
}
