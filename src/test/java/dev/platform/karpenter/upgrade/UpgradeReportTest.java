package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.TfvarsFile;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.FieldMoves;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeReport.Check;
import dev.platform.karpenter.upgrade.UpgradeReport.MovedField;
import dev.platform.karpenter.upgrade.UpgradeReport.Step;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The report as a value: per step what changes, the generation changes it makes and the user's fields they move. */
class UpgradeReportTest {
    private static final KarpenterRelease OLDEST = KarpenterMinor.all().get(0).firstRelease();
    /** The last minor of v1alpha5 and of v1beta1: the tfvars a user writes before each generation change. */
    private static final KarpenterRelease LAST_V1ALPHA5 = KarpenterMinor.V0_31.newestRelease();

    private static final KarpenterRelease LAST_V1BETA1 = KarpenterMinor.V0_37.newestRelease();

    @Test
    void theWholePathMakesEachGenerationChangeOnceWhereTheNewGenerationIsFirstDeclared() {
        Deployed from = new Deployed(OLDEST, ApiGeneration.V1ALPHA5);
        UpgradeReport report = report(TestConfigs.tfvars(OLDEST.chartVersion()), from, KarpenterRelease.newest());

        assertThat(report.steps().stream().flatMap(step -> step.changes().stream()))
                .containsExactlyElementsOf(FieldMoves.all());
        for (Step step : report.steps()) {
            List<ApiGeneration> declared = step.apis().rendered();
            assertThat(step.changes().stream().map(FieldMoves.Change::to))
                    .as(UpgradeSteps.describe(step.apis()))
                    .containsExactlyElementsOf(
                            step.before().rendered().contains(declared.get(declared.size() - 1))
                                    ? List.of()
                                    : List.of(declared.get(declared.size() - 1)));
            assertThat(step.movedFields()).isEmpty();
            assertThat(step.checksBeforeNext()).startsWith(Check.CONTROLLER_RUNS);
        }
        assertThat(report.setsSpecs()).isFalse();
        assertThat(report.steps().stream().flatMap(step -> step.checksBeforeNext().stream()))
                .containsSubsequence(Check.NO_PROVISIONER_NODES, Check.CONVERSION_WEBHOOKS, Check.STORED_AS_V1);
    }

    @Test
    void aV1alpha5SpecsFieldsMoveAtTheStepThatDeclaresNodePools() {
        String tfvars = TestConfigs.tfvars(
                LAST_V1ALPHA5.chartVersion(),
                "node_pool_spec = { ttlSecondsUntilExpired = 2592000, labels = { team = \"a\" } }",
                "node_class_spec = { subnetSelector = { \"karpenter.sh/discovery\" = \"demo\" }, tags = { a = \"b\" } }",
                "node_classes = [{ name = \"gpu\", spec = { amiSelector = { \"aws-ids\" = \"ami-1\" } } }]",
                "node_pools = [{ name = \"gpu\", node_class = \"gpu\", spec = { kubeletConfiguration = { maxPods = 20 } } }]");

        UpgradeReport report =
                report(tfvars, new Deployed(LAST_V1ALPHA5, ApiGeneration.V1ALPHA5), KarpenterRelease.newest());

        Step first = report.steps().get(0);
        assertThat(first.changes())
                .containsExactly(FieldMoves.into(ApiGeneration.V1BETA1).orElseThrow());
        assertThat(first.movedFields().stream().map(UpgradeReportPrinter::movedField))
                .containsExactly(
                        "node_pool_spec.ttlSecondsUntilExpired -> node_pool_spec.disruption.expireAfter (a duration"
                                + " such as 720h, or Never)",
                        "node_pool_spec.labels -> node_pool_spec.template.metadata.labels",
                        "node_pools[0].spec.kubeletConfiguration -> node_pools[0].spec.template.spec.kubelet"
                                + " (containerRuntime is no longer supported)",
                        "node_class_spec.subnetSelector -> node_class_spec.subnetSelectorTerms (a list of terms, each"
                                + " of tags or an id; comma-separated values become separate terms)",
                        "node_classes[0].spec.amiSelector -> node_classes[0].spec.amiSelectorTerms (a list of terms,"
                                + " each of tags, an id, a name or an owner; AMI tag requirements are no longer"
                                + " supported)");
        assertThat(report.setsSpecs()).isTrue();
        assertThat(report.steps().subList(1, report.steps().size()))
                .allSatisfy(step -> assertThat(step.movedFields()).isEmpty());
    }

    @Test
    void aV1beta1PoolsKubeletMovesIntoItsOwnNodeClassAtTheStepThatDeclaresV1() {
        String tfvars = TestConfigs.tfvars(
                LAST_V1BETA1.chartVersion(),
                "node_pool_spec = { disruption = { expireAfter = \"720h\" } }",
                "node_classes = [{ name = \"gpu\", spec = { amiFamily = \"Bottlerocket\" } }]",
                "node_pools = [{ name = \"gpu\", node_class = \"gpu\","
                        + " spec = { template = { spec = { kubelet = { maxPods = 20 } } } } }]");

        UpgradeReport report =
                report(tfvars, new Deployed(LAST_V1BETA1, ApiGeneration.V1BETA1), KarpenterRelease.newest());

        Step retiring = report.steps().stream()
                .filter(step -> !step.changes().isEmpty())
                .findFirst()
                .orElseThrow();
        assertThat(retiring.apis().rendered()).containsExactly(ApiGeneration.V1);
        assertThat(retiring.before().rendered()).containsExactly(ApiGeneration.V1BETA1);
        assertThat(retiring.movedFields())
                .extracting(MovedField::setting, field -> field.move().from(), MovedField::toSetting)
                .containsExactly(
                        tuple("node_pool_spec", List.of("disruption", "expireAfter"), Optional.empty()),
                        tuple(
                                "node_pools[0].spec",
                                List.of("template", "spec", "kubelet"),
                                Optional.of("node_classes[0].spec")),
                        tuple("node_classes[0].spec", List.of("amiFamily"), Optional.empty()));
        assertThat(retiring.movedFields().get(1))
                .extracting(UpgradeReportPrinter::movedField)
                .isEqualTo("node_pools[0].spec.template.spec.kubelet -> node_classes[0].spec.kubelet (pools that"
                        + " share a node class share its kubelet: one node class per kubelet)");
    }

    private static UpgradeReport report(String tfvars, Deployed from, KarpenterRelease target) {
        Map<String, Object> variables = TfvarsFile.parse(tfvars);
        List<DeclaredApis> steps = UpgradeSteps.path(from, target);
        return UpgradeReport.of(
                ConfigLoader.fromVariables(variables), variables, from, target, steps, Optional.empty());
    }
}
