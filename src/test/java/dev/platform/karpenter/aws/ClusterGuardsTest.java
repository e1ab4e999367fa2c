package dev.platform.karpenter.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.hashicorp.cdktf.Postcondition;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every stack of a cluster reads the cluster with the version guards, so whichever stack deploy '*' plans first
 * stops. What the guards decide is shown with Terraform in ClusterGuardsIT.
 */
@KernelOnlyThroughSynthesized
class ClusterGuardsTest {
    private static final List<String> STACKS =
            List.of("demo-iam", "demo-interruption", "demo-karpenter", "demo-nodepools");

    @RegisterExtension
    static final Synthesized AL2_ON_1_0_4 = Synthesized.of(TestConfigs.config("1.0.4", "ami_family = \"AL2\""));

    @RegisterExtension
    static final Synthesized BOTTLEROCKET_ON_V0 = Synthesized.of(TestConfigs.config(TestConfigs.V0));

    @RegisterExtension
    static final Synthesized NEWEST_BESIDE_AUTO_MODE =
            Synthesized.of(TestConfigs.config(KarpenterRelease.newest().chartVersion(), "beside_auto_mode = true"));

    @Test
    void everyStackReadsTheClusterWithTheGuards() {
        for (String name : STACKS) {
            JsonNode clusters = Synthesized.dataSources(AL2_ON_1_0_4.stack(name), "aws_eks_cluster");
            assertThat(clusters).as(name).hasSize(1);
            JsonNode cluster = clusters.elements().next();
            assertThat(cluster.path("name").asText()).isEqualTo("demo");
            assertThat(cluster.at("/lifecycle/postcondition")).as(name).hasSize(3);
        }
    }

    @Test
    void theChartGuardListsExactlyTheSupportedVersionsAndAdvisesByVersion() {
        JsonNode guard = postconditions(AL2_ON_1_0_4, "demo-iam").get(1);

        assertThat(guard.path("condition").asText())
                .isEqualTo("${contains([\"1.25\", \"1.26\", \"1.27\", \"1.28\", \"1.29\", \"1.30\"], self.version)}");
        String message = guard.path("error_message").asText();
        assertThat(message)
                .startsWith(
                        "Karpenter 1.0.4 supports Kubernetes 1.25 to 1.30, but EKS cluster demo runs "
                                + "Kubernetes ${self.version}: set karpenter_chart_version to a release that supports it (${lookup({");
        assertThat(message)
                .contains(
                        "\"1.31\" = \"1.0.5 to " + TestConfigs.V1_SERIES + "\"",
                        "\"1.33\" = \"1.5.x to " + TestConfigs.V1_SERIES + "\"",
                        "\"1.23\" = \"v0.30.x to 0.37.x\"",
                        "self.version, \"none of the releases this project supports does yet\")})");
    }

    @Test
    void theAmiGuardStopsAmazonLinux2From133On() {
        JsonNode guard = postconditions(AL2_ON_1_0_4, "demo-nodepools").get(2);

        assertThat(guard.path("condition").asText()).isEqualTo("${tonumber(split(\".\", self.version)[1]) <= 32}");
        assertThat(guard.path("error_message").asText())
                .isEqualTo("ami_family = \"AL2\" cannot run on EKS cluster demo: "
                        + "it runs Kubernetes ${self.version}, and EKS publishes no AL2 AMI for Kubernetes 1.33 or later. "
                        + "Set ami_family to \"Bottlerocket\" or \"AL2023\". Nothing was changed.");
    }

    /** The guard follows the family of the rendered node class, however it is written. */
    @Test
    void aSpecAliasOfAmazonLinux2GetsTheSameGuard() {
        List<Postcondition> guards = ClusterGuards.postconditions(TestConfigs.config(
                "1.0.4",
                "node_classes = [{ name = \"old\", spec = { amiSelectorTerms = [{ alias = \"al2@latest\" }] } }]",
                "node_pools = [{ name = \"old\", node_class = \"old\" }]"));

        assertThat(guards).hasSize(3);
        assertThat(guards.get(2).getCondition()).isEqualTo("${tonumber(split(\".\", self.version)[1]) <= 32}");
        assertThat(guards.get(2).getErrorMessage())
                .isEqualTo("node_classes[0].spec.amiSelectorTerms[0].alias = \"al2@latest\" cannot run on EKS cluster"
                        + " demo: it runs Kubernetes ${self.version}, and EKS publishes no AL2 AMI for Kubernetes 1.33"
                        + " or later. Set node_classes[0].spec.amiSelectorTerms[0].alias to \"bottlerocket@latest\" or"
                        + " \"al2023@latest\". Nothing was changed.");
    }

    /** amiFamily Custom with an AL2 alias boots AL2's AMIs, which Karpenter no longer resolves from 1.33 on. */
    @Test
    void aCustomClassBootingAnAmazonLinux2AliasGetsTheSameGuard() {
        List<Postcondition> guards = ClusterGuards.postconditions(TestConfigs.config(
                "1.0.4",
                "node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ alias = \"al2@latest\" }],"
                        + " userData = \"#!/bin/bash\" }"));

        assertThat(guards).hasSize(3);
        assertThat(guards.get(2).getCondition()).isEqualTo("${tonumber(split(\".\", self.version)[1]) <= 32}");
        assertThat(guards.get(2).getErrorMessage())
                .startsWith("node_class_spec.amiSelectorTerms[0].alias = \"al2@latest\" cannot run on EKS cluster"
                        + " demo: it runs Kubernetes ${self.version}, and EKS publishes no AL2 AMI");
    }

    /** A spec alias naming another family lifts the guard the typed default would have set. */
    @Test
    void aSpecAliasOfAnotherFamilyDropsTheTypedFamilysGuard() {
        assertThat(ClusterGuards.postconditions(TestConfigs.config(
                        "1.0.4", "node_class_spec = { amiSelectorTerms = [{ alias = \"al2023@latest\" }] }")))
                .hasSize(2);
    }

    /** Windows nodes need an IPv4 cluster, which the data source shows; Windows support itself it cannot. */
    @Test
    void aWindowsNodeClassStopsOnAnIpv6Cluster() {
        List<Postcondition> guards = ClusterGuards.postconditions(TestConfigs.config(
                TestConfigs.V1,
                "node_classes = [{ name = \"win\", ami_family = \"Windows2025\" }]",
                "node_pools = [{ name = \"win\", node_class = \"win\" }]"));
        Postcondition windows = guards.get(guards.size() - 1);

        assertThat(windows.getCondition())
                .isEqualTo("${!anytrue([for c in coalesce(self.kubernetes_network_config, []) : c.ip_family =="
                        + " \"ipv6\"])}");
        assertThat(windows.getErrorMessage())
                .isEqualTo("node class \"win\" launches Windows2025 nodes, but EKS cluster demo runs IPv6, which"
                        + " Windows nodes do not support. Use a Linux AMI family for it, or an IPv4 cluster. Nothing"
                        + " was changed.");
        assertThat(ClusterGuards.postconditions(TestConfigs.config(TestConfigs.V1)))
                .hasSize(2);
    }

    @Test
    void familiesWithCurrentAmisNeedNoAmiGuard() {
        JsonNode guards = postconditions(BOTTLEROCKET_ON_V0, "demo-interruption");

        assertThat(guards).hasSize(2);
        assertThat(guards.get(1).path("condition").asText())
                .isEqualTo("${contains([\"1.23\", \"1.24\", \"1.25\", \"1.26\", \"1.27\"], self.version)}");
    }

    @Test
    void everyStackStopsOnAnAutoModeClusterFirst() {
        for (String name : STACKS) {
            JsonNode guard = postconditions(BOTTLEROCKET_ON_V0, name).get(0);
            assertThat(guard.path("condition").asText())
                    .as(name)
                    .isEqualTo("${!anytrue([for c in coalesce(self.compute_config, []) : c.enabled == true])}");
            assertThat(guard.path("error_message").asText())
                    .isEqualTo("EKS cluster demo runs EKS Auto Mode (compute_config enabled): AWS already runs"
                            + " Karpenter there, and a second one would fight it over the same nodes. To install this"
                            + " one beside it for a deliberate migration to Auto Mode, set beside_auto_mode = true"
                            + " (Karpenter 1.1.x to " + TestConfigs.V1_SERIES
                            + "; docs/guides/auto-mode.md). Nothing was"
                            + " changed.");
        }
    }

    @Test
    void besideAutoModeWaivesOnlyThatGuard() {
        for (String name : STACKS) {
            JsonNode guards = postconditions(NEWEST_BESIDE_AUTO_MODE, name);
            assertThat(guards).as(name).hasSize(1);
            assertThat(guards.get(0).path("condition").asText()).startsWith("${contains([");
        }
    }

    private static JsonNode postconditions(Synthesized synthesized, String stack) {
        return Synthesized.dataSources(synthesized.stack(stack), "aws_eks_cluster")
                .elements()
                .next()
                .at("/lifecycle/postcondition");
    }
}
