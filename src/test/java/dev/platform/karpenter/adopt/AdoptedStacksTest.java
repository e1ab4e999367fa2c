package dev.platform.karpenter.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The adopt setting in the synthesized stacks: an import block for every adopted resource, into the resource that
 * carries the adopted name, and nothing imported where nothing is adopted; refusals of what the configuration would
 * not create.
 */
class AdoptedStacksTest {
    private static final String QUEUE = "https://sqs.us-west-2.amazonaws.com/123456789012/Karpenter-seed";
    private static final String SEED_ADOPT = """
            adopt = {
              controller_role  = "KarpenterIRSA-seed"
              instance_profile = "Karpenter-seed-20240101000000000000000001"
              queue            = "%s"
              event_rules = {
                Health        = "KarpenterHealthEvent-20240101000000000000000002"
                SpotInterrupt = "KarpenterSpotInterrupt-20240101000000000000000003"
              }
              helm_releases = ["karpenter/karpenter"]
              node_pool_objects = ["Provisioner/default", "AWSNodeTemplate/default"]
            }""".formatted(QUEUE);

    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster("seed", "v0.30.0", "queue_name = \"Karpenter-seed\"", SEED_ADOPT)
            .cluster(
                    "twentyone",
                    TestConfigs.V1,
                    "controller_identity = \"pod_identity\"",
                    "create_iam_role = true",
                    """
                    adopt = {
                      controller_role          = "KarpenterController-20250101000000000000000001"
                      pod_identity_association = "twentyone,a-abcdefghijklmnop1"
                      node_role                = "Karpenter-twentyone-20250101000000000000000006"
                      node_access_entry        = "twentyone:arn:aws:iam::123456789012:role/Karpenter-twentyone-20250101000000000000000006"
                      helm_releases            = ["karpenter/karpenter", "karpenter/karpenter-crd"]
                    }""")
            .cluster("fresh", "v0.30.0")
            .synthesize();

    @Test
    void theSeedsResourcesAreImportedUnderTheirOwnNames() {
        JsonNode iam = APP.stack("seed-iam");
        assertThat(imports(iam))
                .containsExactlyInAnyOrder(
                        "aws_iam_role KarpenterIRSA-seed",
                        "aws_iam_instance_profile Karpenter-seed-20240101000000000000000001");
        assertThat(Synthesized.onlyResource(iam, "aws_iam_instance_profile")
                        .path("name")
                        .asText())
                .isEqualTo("Karpenter-seed-20240101000000000000000001");
        JsonNode role = Synthesized.resources(iam, "aws_iam_role");
        assertThat(role.elements().next().path("name").asText()).isEqualTo("KarpenterIRSA-seed");

        JsonNode interruption = APP.stack("seed-interruption");
        assertThat(imports(interruption))
                .containsExactlyInAnyOrder(
                        "aws_sqs_queue " + QUEUE,
                        "aws_sqs_queue_policy " + QUEUE,
                        "aws_cloudwatch_event_rule KarpenterHealthEvent-20240101000000000000000002",
                        "aws_cloudwatch_event_target KarpenterHealthEvent-20240101000000000000000002/KarpenterInterruptionQueueTarget",
                        "aws_cloudwatch_event_rule KarpenterSpotInterrupt-20240101000000000000000003",
                        "aws_cloudwatch_event_target KarpenterSpotInterrupt-20240101000000000000000003/KarpenterInterruptionQueueTarget");
        assertThat(ruleNames(interruption))
                .containsExactlyInAnyOrder(
                        "KarpenterHealthEvent-20240101000000000000000002",
                        "KarpenterSpotInterrupt-20240101000000000000000003",
                        "seed-Rebalance",
                        "seed-StateChange");

        assertThat(imports(APP.stack("seed-karpenter"))).containsExactlyInAnyOrder("helm_release karpenter/karpenter");
    }

    @Test
    void podIdentityTheCreatedNodeRoleItsAccessEntryAndBothReleasesAreImported() {
        assertThat(imports(APP.stack("twentyone-iam")))
                .containsExactlyInAnyOrder(
                        "aws_iam_role KarpenterController-20250101000000000000000001",
                        "aws_eks_pod_identity_association twentyone,a-abcdefghijklmnop1",
                        "aws_iam_role Karpenter-twentyone-20250101000000000000000006",
                        "aws_eks_access_entry twentyone:arn:aws:iam::123456789012:role/Karpenter-twentyone-20250101000000000000000006");
        assertThat(imports(APP.stack("twentyone-karpenter")))
                .containsExactlyInAnyOrder("helm_release karpenter/karpenter", "helm_release karpenter/karpenter-crd");
    }

    @Test
    void nothingIsImportedWithoutAdopt() {
        for (String concern : new String[] {"iam", "interruption", "karpenter", "nodepools"}) {
            assertThat(APP.stack("fresh-" + concern).has("import")).as(concern).isFalse();
        }
    }

    @Test
    void whatTheConfigurationWouldNotCreateIsRefusedInOneLine() {
        assertThatThrownBy(() -> TestConfigs.config(
                        TestConfigs.V1, "adopt = { instance_profile = \"Karpenter-demo-20240101000000000000000001\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.instance_profile: Karpenter " + TestConfigs.V1 + " makes its own instance"
                        + " profiles, so the configuration creates none: remove it");
        assertThatThrownBy(() -> TestConfigs.config("v0.30.0", "adopt = { queue = \"" + QUEUE + "\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.queue is the queue \"Karpenter-seed\" but queue_name makes \"demo\": set"
                        + " queue_name = \"Karpenter-seed\"");
        assertThatThrownBy(() -> TestConfigs.config("v0.30.0", "adopt = { node_role = \"Karpenter-demo\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.node_role: the configuration creates no node role (create_iam_role = false): set"
                        + " create_iam_role = true or remove it");
        assertThatThrownBy(() -> TestConfigs.config("v0.30.0", "adopt = { event_rules = { CapacityResv = \"x\" } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.event_rules.CapacityResv: Karpenter v0.30.0 makes no such rule: allowed Health,"
                        + " SpotInterrupt, Rebalance, StateChange");
        assertThatThrownBy(
                        () -> TestConfigs.config("v0.30.0", "adopt = { helm_releases = [\"kube-system/karpenter\"] }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "adopt.helm_releases: \"kube-system/karpenter\" is no release of the" + " configuration");
        assertThatThrownBy(() -> TestConfigs.config(
                        "v0.30.0", "adopt = { node_pool_objects = [\"Provisioner/default\", \"Provisioner/gpu\"] }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.node_pool_objects: Provisioner/gpu is no pool or node class of the configuration"
                        + " (it has Provisioner/default, AWSNodeTemplate/default): declare it in node_pools or"
                        + " node_classes, or leave it out of adopt (it then stays as it is, unmanaged)");
        assertThatThrownBy(() -> TestConfigs.config(
                        TestConfigs.V1,
                        "controller_identity = \"pod_identity\"",
                        "adopt = { pod_identity_association = \"demo:a-1\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("adopt.pod_identity_association must be \"CLUSTER,ASSOCIATION-ID\", got \"demo:a-1\"");
        assertThatThrownBy(() -> TestConfigs.config("v0.30.0", "adopt = { security_group = \"sg-1\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "adopt.security_group is not a resource the stacks take over: allowed" + " controller_role, ");
        assertThatThrownBy(() -> TestConfigs.config("v0.30.0", "adopt = { chart_version = \"v0.29.0\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("adopt.chart_version \"v0.29.0\" is not supported; supported: ");
    }

    /** The stack's import blocks as "type id": the type of the resource imported into, and the import id. */
    private static List<String> imports(JsonNode stack) {
        List<String> imports = new ArrayList<>();
        for (JsonNode block : stack.path("import")) {
            String to = block.path("to").asText();
            imports.add(
                    to.substring(0, to.indexOf('.')) + " " + block.path("id").asText());
        }
        return imports;
    }

    private static List<String> ruleNames(JsonNode stack) {
        List<String> names = new ArrayList<>();
        Synthesized.resources(stack, "aws_cloudwatch_event_rule")
                .elements()
                .forEachRemaining(rule -> names.add(rule.path("name").asText()));
        return names;
    }
}
