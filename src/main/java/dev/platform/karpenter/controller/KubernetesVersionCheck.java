package dev.platform.karpenter.controller;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.Op;
import com.hashicorp.cdktf.Precondition;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.KubernetesRange;
import java.util.stream.Collectors;

/**
 * Fails the plan when the cluster runs a Kubernetes version the chart version does not support, before Helm
 * installs a controller that would crash-loop or mis-schedule. A precondition (not a check block) because a
 * check only warns and the apply would go ahead.
 */
final class KubernetesVersionCheck {
    private KubernetesVersionCheck() {
    }

    /** @param clusterVersion the cluster's version ("1.29"), a reference to data.aws_eks_cluster */
    static Precondition of(KarpenterRelease release, String clusterName, String clusterVersion) {
        KubernetesRange range = release.supportedKubernetes();
        Object minor = Fn.tonumber(Fn.element(Fn.split(".", clusterVersion), 1));
        String advice = KarpenterRelease.newestOfEachMajor().stream()
                .map(newest -> newest.minorSeries() + " for Kubernetes " + newest.supportedKubernetes())
                .collect(Collectors.joining(", "));
        return Precondition.builder()
                .condition(Op.and(Op.gte(minor, range.minMinor()), Op.lte(minor, range.maxMinor())))
                .errorMessage("Karpenter " + release.chartVersion() + " supports Kubernetes " + range + " but EKS cluster "
                        + clusterName + " runs " + clusterVersion + ": set karpenter_chart_version to a release that supports it ("
                        + advice + ")")
                .build();
    }
}
