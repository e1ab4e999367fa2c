package dev.platform.karpenter.nodepools;

import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.Json.yamlDocuments;
import static dev.platform.karpenter.testing.Synthesized.onlyResource;
import static dev.platform.karpenter.testing.Synthesized.resources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.TerraformReferences;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pool launching into on-demand capacity reservations, end to end in the synthesized stacks: the requirement and
 * the node class's reservation selectors reach the objects, the controller may read and launch into reservations,
 * the interruption queue gets the reservation's warnings where the release handles them, and the feature gate is
 * turned on where the release has it off. NodePoolsChartRenderTest and ControllerValuesRenderTest render the same
 * settings through the real charts and CRDs.
 */
@KernelOnlyThroughSynthesized
public class CapacityReservationsTest {
    /** README: a pool on one reservation by id, and on the team's reservations by tag, falling back to on-demand. */
    public static final String[] RESERVED_POOL = {
        "capacity_types = [\"reserved\", \"on-demand\"]",
        "node_class_spec = { capacityReservationSelectorTerms = [{ id = \"cr-0123456789abcdef0\" }, { tags = { team ="
                + " \"ml\" }, ownerID = \"123456789012\" }] }"
    };

    static final KarpenterRelease NEWEST = KarpenterRelease.newest();
    /** The newest release whose chart has the ReservedCapacity gate off by default. */
    static final KarpenterRelease GATE_OFF = KarpenterMinor.all().stream()
            .map(KarpenterMinor::newestRelease)
            .filter(release -> release.hasCapacityReservations() && !release.reservedCapacityOnByDefault())
            .reduce((first, second) -> second)
            .orElseThrow();

    private static final ClusterConfig RESERVED = config("reserved", NEWEST);
    private static final ClusterConfig RESERVED_GATE_OFF = config("gateoff", GATE_OFF);
    private static final ClusterConfig USER_GATE = config(
            "usergate", GATE_OFF, "controller_values = { settings = { featureGates = { reservedCapacity = false } } }");
    private static final ClusterConfig NOT_RESERVED =
            TestConfigs.configFor("plain", "us-west-2", GATE_OFF.chartVersion());
    private static final Synthesized APP = Synthesized.of(RESERVED, RESERVED_GATE_OFF, USER_GATE, NOT_RESERVED);

    private static ClusterConfig config(String name, KarpenterRelease release, String... more) {
        List<String> lines = new ArrayList<>(List.of(RESERVED_POOL));
        lines.addAll(List.of(more));
        return TestConfigs.configFor(name, "us-west-2", release.chartVersion(), lines.toArray(String[]::new));
    }

    private static List<JsonNode> objects(ClusterConfig config) {
        return poolObjects(APP, config);
    }

    private static JsonNode controllerValues(ClusterConfig config) {
        return controllerValues(APP, config);
    }

    /** The objects the nodepools stack's Helm release applies, references resolved. */
    static List<JsonNode> poolObjects(Synthesized app, ClusterConfig config) {
        JsonNode release = onlyResource(app.stack(config.stackName(NodePoolsStack.CONCERN)), "helm_release");
        List<JsonNode> manifests = new ArrayList<>();
        yamlDocuments(resolved(release.path("values").get(0).asText()))
                .get(0)
                .path("manifests")
                .forEach(manifests::add);
        return manifests;
    }

    /** The values of the controller's Helm release, references resolved. */
    static JsonNode controllerValues(Synthesized app, ClusterConfig config) {
        JsonNode releases = resources(app.stack(config.stackName(ControllerStack.CONCERN)), "helm_release");
        List<JsonNode> controller = new ArrayList<>();
        releases.forEach(release -> {
            if (release.path("chart").asText().equals("karpenter")) {
                controller.add(release);
            }
        });
        assertThat(controller).hasSize(1);
        return Json.yaml(resolved(controller.get(0).path("values").get(0).asText()));
    }

    /** Values with their Terraform references resolved, as Helm gets them. */
    private static String resolved(String values) {
        return TerraformReferences.replace(values, expression -> "resolved");
    }

    @Test
    void thePoolRequiresReservedCapacityAndItsNodeClassSelectsTheReservations() {
        for (ClusterConfig config : List.of(RESERVED, RESERVED_GATE_OFF)) {
            List<JsonNode> objects = objects(config);
            JsonNode pool = objects.stream()
                    .filter(o -> o.path("kind").asText().equals("NodePool"))
                    .findFirst()
                    .orElseThrow();
            JsonNode capacity = null;
            for (JsonNode requirement : pool.at("/spec/template/spec/requirements")) {
                if (requirement.path("key").asText().equals("karpenter.sh/capacity-type")) {
                    capacity = requirement;
                }
            }
            assertThat(capacity).as(config.release().toString()).isNotNull();
            assertThat(capacity.path("operator").asText()).isEqualTo("In");
            assertThat(texts(capacity.path("values"))).containsExactly("reserved", "on-demand");

            JsonNode nodeClass = objects.stream()
                    .filter(o -> o.path("kind").asText().equals("EC2NodeClass"))
                    .findFirst()
                    .orElseThrow();
            assertThat(nodeClass.at("/spec/capacityReservationSelectorTerms"))
                    .isEqualTo(Json.parse("[{\"id\": \"cr-0123456789abcdef0\"},"
                            + " {\"tags\": {\"team\": \"ml\"}, \"ownerID\": \"123456789012\"}]"));
        }
    }

    @Test
    void theControllerMayReadAndLaunchIntoReservations() {
        for (ClusterConfig config : List.of(RESERVED, RESERVED_GATE_OFF)) {
            List<String> actions = new ArrayList<>();
            List<String> launchResources = new ArrayList<>();
            resources(APP.stack(config.stackName(IamStack.CONCERN)), "aws_iam_policy")
                    .forEach(policy -> Json.parse(policy.path("policy").asText())
                            .path("Statement")
                            .forEach(statement -> {
                                List<String> statementActions = texts(statement.path("Action"));
                                actions.addAll(statementActions);
                                if (statementActions.contains("ec2:RunInstances")) {
                                    launchResources.addAll(texts(statement.path("Resource")));
                                }
                            }));
            assertThat(actions).as(config.clusterName()).contains("ec2:DescribeCapacityReservations");
            assertThat(launchResources).anyMatch(resource -> resource.endsWith(":capacity-reservation/*"));
        }
    }

    @Test
    void theInterruptionQueueGetsReservationWarningsWhereTheReleaseHandlesThem() {
        for (ClusterConfig config : List.of(RESERVED, RESERVED_GATE_OFF)) {
            List<String> detailTypes = new ArrayList<>();
            resources(APP.stack(config.stackName(InterruptionStack.CONCERN)), "aws_cloudwatch_event_rule")
                    .forEach(rule -> detailTypes.addAll(texts(
                            Json.parse(rule.path("event_pattern").asText()).path("detail-type"))));
            boolean handled = config.release().handlesCapacityReservationInterruptions();
            assertThat(detailTypes.contains("EC2 Capacity Reservation Instance Interruption Warning"))
                    .as(config.release().toString())
                    .isEqualTo(handled);
        }
        assertThat(NEWEST.handlesCapacityReservationInterruptions()).isTrue();
    }

    @Test
    void theFeatureGateIsTurnedOnWhereTheReleaseHasItOffUnlessControllerValuesSetsIt() {
        JsonNode gates = controllerValues(RESERVED_GATE_OFF).at("/settings/featureGates");
        assertThat(gates.path("reservedCapacity").booleanValue()).isTrue();
        assertThat(gates.size()).as("only the gate the pool needs").isEqualTo(1);

        assertThat(controllerValues(USER_GATE)
                        .at("/settings/featureGates/reservedCapacity")
                        .isBoolean())
                .isTrue();
        assertThat(controllerValues(USER_GATE)
                        .at("/settings/featureGates/reservedCapacity")
                        .booleanValue())
                .as("the user's word stands")
                .isFalse();
        assertThat(controllerValues(NOT_RESERVED).at("/settings/featureGates").isMissingNode())
                .as("no pool allows reserved")
                .isTrue();
        assertThat(controllerValues(RESERVED).at("/settings/featureGates").isMissingNode())
                .as("on by default in the newest release")
                .isTrue();
    }
}
