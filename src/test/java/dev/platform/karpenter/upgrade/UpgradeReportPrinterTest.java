package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.FieldMoves;
import dev.platform.karpenter.release.FieldMoves.Holder;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.upgrade.UpgradeReport.Check;
import dev.platform.karpenter.upgrade.UpgradeReport.MovedField;
import dev.platform.karpenter.upgrade.UpgradeReport.Step;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The report's text, line for line, from report values made here (so only the printer is under test). */
class UpgradeReportPrinterTest {
    /** The bridge minor of v1beta1 and v1: its pools retire v1beta1 in a step of their own. */
    private static final KarpenterRelease BRIDGE = KarpenterMinor.V1_0.newestRelease();

    @Test
    void aStepThatChangesTheGenerationListsItsMovesThenTheUsersFields() {
        FieldMoves.Change v1 = FieldMoves.into(ApiGeneration.V1).orElseThrow();
        Map<String, Object> poolSpec = Map.of("disruption", Map.of("expireAfter", "720h"));
        Step step = new Step(
                DeclaredApis.retiring(BRIDGE),
                DeclaredApis.keeping(BRIDGE),
                List.of("NodeLifecycle", "ZonalShift"),
                List.of("NodeLifecycle", "ZonalShift", "NodeLifecycleV1beta1"),
                4,
                4,
                Optional.of("node_pool_spec.disruption.expireAfter: unknown field"),
                List.of(v1),
                v1.setIn(Holder.POOL, poolSpec).stream()
                        .map(move -> new MovedField("node_pool_spec", move, Optional.empty()))
                        .toList(),
                List.of(Check.CONTROLLER_RUNS, Check.STORED_AS_V1));
        UpgradeReport report = report(
                new Deployed(BRIDGE, ApiGeneration.V1BETA1),
                Optional.of(BRIDGE.supportedKubernetes().max()),
                step);
        String kubernetes = BRIDGE.supportedKubernetes().toString();
        String max = BRIDGE.supportedKubernetes().max();

        assertThat(UpgradeReportPrinter.lines(report))
                .containsExactly(
                        "Karpenter " + BRIDGE + " is deployed on cluster demo (pools declared as v1beta1).",
                        "1 step to " + BRIDGE + ", each one change of the tfvars and one deploy (bin/cdktf deploy"
                                + " '*', cdktf-cli " + CdktfCli.version() + "):",
                        "",
                        "1. karpenter_chart_version = \"" + BRIDGE + "\", retired_api = \"v1beta1\"",
                        "   Kubernetes " + kubernetes + " (the cluster's " + max + ": fits)",
                        "   Pools: NodePool + EC2NodeClass (karpenter.sh/v1) (was NodePool + EC2NodeClass"
                                + " (karpenter.sh/v1beta1))",
                        "   IAM: controller policies NodeLifecycle, ZonalShift; removed NodeLifecycleV1beta1",
                        "   Helm values: settings.clusterName, settings.clusterEndpoint, settings.interruptionQueue"
                                + " (unchanged)",
                        "   Fields that move from NodePool (karpenter.sh/v1beta1) and EC2NodeClass"
                                + " (karpenter.k8s.aws/v1beta1) to NodePool (karpenter.sh/v1) and EC2NodeClass"
                                + " (karpenter.k8s.aws/v1):",
                        "     NodePool spec.disruption.expireAfter -> NodePool spec.template.spec.expireAfter"
                                + " (changing it now drifts the nodes)",
                        "     NodePool spec.disruption.consolidationPolicy: WhenUnderutilized is renamed"
                                + " WhenEmptyOrUnderutilized; consolidateAfter is required",
                        "     NodePool spec.template.spec.kubelet -> EC2NodeClass spec.kubelet (pools that share a"
                                + " node class share its kubelet: one node class per kubelet)",
                        "     NodePool spec.template.spec.nodeClassRef.apiVersion -> NodePool"
                                + " spec.template.spec.nodeClassRef.group (set from node_class)",
                        "     EC2NodeClass spec.amiFamily -> EC2NodeClass spec.amiSelectorTerms (a term alias ="
                                + " \"<family>@<version>\", e.g. al2023@latest, selects the family's AMIs and stands"
                                + " alone; amiFamily stays beside other terms; amiSelectorTerms is required)",
                        "   Your fields that move:",
                        "     node_pool_spec.disruption.expireAfter -> node_pool_spec.template.spec.expireAfter"
                                + " (changing it now drifts the nodes)",
                        "   Your other settings do not hold for this step: node_pool_spec.disruption.expireAfter:"
                                + " unknown field",
                        "   Before the next step: the controller runs the new version: kubectl -n karpenter get pods"
                                + " -l app.kubernetes.io/name=karpenter",
                        "   Before the next step: every object is stored as v1 ("
                                + KarpenterMinor.V1_0.firstStepRelease().orElseThrow()
                                + " and later migrate them): kubectl get crd nodepools.karpenter.sh"
                                + " nodeclaims.karpenter.sh ec2nodeclasses.karpenter.k8s.aws"
                                + " -o jsonpath='{.items[*].status.storedVersions}' prints only v1");
    }

    @Test
    void theDeployedTargetIsNothingToDo() {
        KarpenterRelease newest = KarpenterRelease.newest();
        UpgradeReport report = report(new Deployed(newest, ApiGeneration.V1), Optional.empty());

        assertThat(UpgradeReportPrinter.lines(report))
                .containsExactly(
                        "Karpenter " + newest + " is deployed on cluster demo (pools declared as v1).",
                        "Nothing to do: that is " + newest + ".");
    }

    /** The report of cluster "demo" with {@code steps} to the release of the last one (or the deployed one). */
    private static UpgradeReport report(Deployed from, Optional<String> kubernetes, Step... steps) {
        return new UpgradeReport(
                "demo",
                "karpenter",
                List.of("demo-nodepools", "demo-karpenter"),
                from,
                steps.length == 0
                        ? from.release()
                        : steps[steps.length - 1].apis().release(),
                kubernetes,
                Arrays.stream(steps).anyMatch(step -> !step.movedFields().isEmpty()),
                List.of(steps));
    }
}
