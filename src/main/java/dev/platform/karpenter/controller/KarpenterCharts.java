package dev.platform.karpenter.controller;

import com.hashicorp.cdktf.TerraformResourceLifecycle;
import dev.platform.karpenter.config.ClusterConfig;
import imports.helm.release.Release;
import imports.helm.release.ReleaseConfig;
import java.util.List;
import software.constructs.Construct;

/**
 * The two Helm releases of Karpenter: {@code karpenter-crd}, then {@code karpenter} with its own {@code crds/}
 * skipped. Helm installs a chart's {@code crds/} once and never upgrades them, so CRDs owned by the karpenter
 * chart stay at the first installed version (the cause of most failed 0.x to 1.x upgrades); the CRD chart
 * templates them as ordinary resources, which every upgrade updates.
 */
public final class KarpenterCharts extends Construct {
    public static final String REPOSITORY = EcrPublicToken.REGISTRY + "/karpenter";
    public static final String CONTROLLER_CHART = "karpenter";
    public static final String CRD_CHART = "karpenter-crd";
    /** The token rotates every 12 hours; without this every plan would show the release as changed. */
    private static final String ROTATING_PASSWORD = "repository_password";

    public KarpenterCharts(
            Construct scope, String id, ClusterConfig config, EcrPublicToken token, ControllerValues values) {
        super(scope, id);
        ReleaseConfig.Builder crdChart = chart(config, token, CRD_CHART);
        config.release()
                .crdWebhookNamespace()
                .ifPresent(path -> crdChart.values(List.of(ControllerValues.yaml(path, config.namespace()))));
        Release crds = new Release(
                this,
                "crd",
                crdChart.lifecycle(TerraformResourceLifecycle.builder()
                                .ignoreChanges(List.of(ROTATING_PASSWORD))
                                .build())
                        .build());
        crds.overrideLogicalId("karpenter_crd");
        Release controller = new Release(
                this,
                "controller",
                chart(config, token, CONTROLLER_CHART)
                        .skipCrds(true)
                        .values(List.of(values.toYaml()))
                        .lifecycle(TerraformResourceLifecycle.builder()
                                .ignoreChanges(List.of(ROTATING_PASSWORD))
                                .build())
                        .dependsOn(List.of(crds))
                        .build());
        controller.overrideLogicalId("karpenter");
    }

    private static ReleaseConfig.Builder chart(ClusterConfig config, EcrPublicToken token, String chart) {
        return ReleaseConfig.builder()
                .name(chart)
                .chart(chart)
                .repository(REPOSITORY)
                .version(config.release().chartVersion())
                .namespace(config.namespace())
                .createNamespace(true)
                .repositoryUsername(token.userName())
                .repositoryPassword(token.password());
    }
}
