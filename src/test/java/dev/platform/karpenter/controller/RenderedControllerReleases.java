package dev.platform.karpenter.controller;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.TerraformReferences;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The app synthesized once with one cluster per chart family (every controller setting, non-default namespace and
 * service account, IRSA), plus a Pod Identity cluster per family that supports it; then each cluster's two Helm releases rendered
 * by real Helm from the upstream charts, with exactly the values the synthesized {@code helm_release} carries.
 * Terraform references (known only at apply) become markers {@code <tf:EXPRESSION>}.
 */
final class RenderedControllerReleases {
    static final String NAMESPACE = "karpenter-system";
    static final String SERVICE_ACCOUNT = "karpenter-controller";
    private static final Pattern REMOTE_OUTPUT =
            Pattern.compile("<tf:data\\.terraform_remote_state\\.([^.]+)\\.outputs\\.([^>]+)>");

    /** One cluster's controller stack and its releases as Helm renders them. */
    record Cluster(String tag, String clusterName, ClusterConfig config, JsonNode stack, Synthesized synthesized) {
        @Override
        public String toString() {
            return tag + " " + config.iam().controllerIdentity();
        }

        /**
         * What a rendered marker of a cross-stack reference stands for: "producer stack: expression" (e.g.
         * "demo-interruption: aws_sqs_queue.x.name"), read from the producing stack's output.
         */
        String produced(String rendered) {
            Matcher m = REMOTE_OUTPUT.matcher(rendered);
            if (!m.matches()) {
                throw new AssertionError("not a cross-stack reference: " + rendered);
            }
            String path = stack.path("data")
                    .path("terraform_remote_state")
                    .path(m.group(1))
                    .path("config")
                    .path("path")
                    .asText();
            String producer = path.replaceFirst(".*terraform\\.", "").replaceFirst("\\.tfstate$", "");
            String value = synthesized
                    .stack(producer)
                    .path("output")
                    .path(m.group(2))
                    .path("value")
                    .asText();
            return producer + ": " + value.replaceFirst("^\\$\\{(.*)}$", "$1");
        }

        JsonNode release(String address) {
            JsonNode release = stack.path("resource").path("helm_release").path(address);
            if (release.isMissingNode()) {
                throw new AssertionError("no helm_release." + address + " in the stack of " + clusterName);
            }
            return release;
        }

        /** The controller release's values document with Terraform references as markers. */
        String values() {
            JsonNode values = release("karpenter").path("values");
            if (values.size() != 1) {
                throw new AssertionError("expected one values document, got " + values);
            }
            return markers(values.get(0).asText());
        }

        /** The karpenter chart rendered with {@code valuesYaml}, as the release would install it. */
        List<JsonNode> renderController(String valuesYaml) {
            return render("karpenter", valuesYaml);
        }

        /** The CRD release's values document with markers; empty where the release sets none. */
        String crdValues() {
            JsonNode values = release("karpenter_crd").path("values");
            return values.isEmpty() ? "" : markers(values.get(0).asText());
        }

        /** The karpenter-crd chart rendered as its release installs it. */
        List<JsonNode> renderCrds() {
            return renderCrds(crdValues());
        }

        List<JsonNode> renderCrds(String valuesYaml) {
            return render("karpenter_crd", valuesYaml);
        }

        /** The chart of the helm_release {@code resourceName}, rendered into its release's name and namespace. */
        private List<JsonNode> render(String resourceName, String valuesYaml) {
            JsonNode release = release(resourceName);
            return HelmRender.template(
                    UpstreamCharts.chart(tag, release.path("chart").asText()),
                    release.path("name").asText(),
                    release.path("namespace").asText(),
                    valuesYaml);
        }
    }

    static final Map<String, Cluster> IRSA = new LinkedHashMap<>();
    static final Map<String, Cluster> POD_IDENTITY = new LinkedHashMap<>();

    static {
        Map<String, ClusterConfig> irsa = new LinkedHashMap<>();
        Map<String, ClusterConfig> podIdentity = new LinkedHashMap<>();
        for (String tag : UpstreamCharts.SUPPORTED) {
            irsa.put(tag, config("irsa-" + suffix(tag), tag));
            if (irsa.get(tag).release().supportsPodIdentity()) {
                podIdentity.put(tag, config("podid-" + suffix(tag), tag, "controller_identity = \"pod_identity\""));
            }
        }
        List<ClusterConfig> all = new ArrayList<>(irsa.values());
        all.addAll(podIdentity.values());
        Synthesized synthesized = Synthesized.of(all.toArray(ClusterConfig[]::new));
        irsa.forEach((tag, config) -> IRSA.put(tag, cluster(synthesized, tag, config)));
        podIdentity.forEach((tag, config) -> POD_IDENTITY.put(tag, cluster(synthesized, tag, config)));
    }

    private RenderedControllerReleases() {}

    /** {@code ${expr}} replaced by {@code <tf:expr>}. */
    static String markers(String text) {
        return TerraformReferences.markers(text);
    }

    private static Cluster cluster(Synthesized synthesized, String tag, ClusterConfig config) {
        return new Cluster(
                tag,
                config.clusterName(),
                config,
                synthesized.stack(config.stackName(ControllerStack.CONCERN)),
                synthesized);
    }

    private static ClusterConfig config(String clusterName, String tag, String... extra) {
        List<String> lines = new ArrayList<>(List.of(ControllerFixtures.EVERY_CONTROLLER_SETTING));
        lines.add("karpenter_namespace = \"" + NAMESPACE + "\"");
        lines.add("karpenter_service_account = \"" + SERVICE_ACCOUNT + "\"");
        lines.addAll(List.of(extra));
        return TestConfigs.configFor(
                clusterName, "us-west-2", UpstreamCharts.chartVersion(tag), lines.toArray(String[]::new));
    }

    private static String suffix(String tag) {
        return tag.replace("v", "").replace('.', '-');
    }
}
