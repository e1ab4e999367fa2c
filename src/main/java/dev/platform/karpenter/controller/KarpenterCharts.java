package dev.platform.karpenter.controller;

import com.hashicorp.cdktf.TerraformResourceLifecycle;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.release.ValuePath;
import imports.helm.release.Release;
import imports.helm.release.ReleaseConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.constructs.Construct;

/**
 * The two Helm releases of Karpenter: {@code karpenter-crd}, then {@code karpenter} with its own {@code crds/}
 * skipped. Helm installs a chart's {@code crds/} once and never upgrades them, so CRDs owned by the karpenter
 * chart stay at the first installed version (the cause of most failed 0.x to 1.x upgrades); the CRD chart
 * templates them as ordinary resources, which every upgrade updates. Both come from chart_repository.
 */
public final class KarpenterCharts extends Construct {
    public static final String CONTROLLER_CHART = "karpenter";
    public static final String CRD_CHART = "karpenter-crd";
    /** The token rotates every 12 hours; without this every plan would show the release as changed. */
    private static final String ROTATING_PASSWORD = "repository_password";

    public KarpenterCharts(
            Construct scope, String id, ClusterConfig config, Optional<RegistryToken> token, String controllerValues) {
        super(scope, id);
        ReleaseConfig.Builder crdChart = chart(config, token, CRD_CHART);
        List<String> crdValues = new ArrayList<>();
        config.release()
                .crdWebhookNamespace()
                .ifPresent(path -> crdValues.add(ControllerValues.yaml(
                        ValuePath.of(path.segments().get(0)),
                        ConversionWebhookValues.of(
                                config.namespace(), config.controller().chartValues()))));
        if (config.besideAutoMode()) {
            // EKS Auto Mode uses the same nodepools/nodeclaims CRDs: uninstalling this release (the migration's last
            // step) must not delete them, and with them every NodePool and NodeClaim, Auto Mode's included.
            config.release()
                    .crdAnnotations()
                    .ifPresent(path ->
                            crdValues.add(ControllerValues.yaml(path, Map.of("helm.sh/resource-policy", "keep"))));
        }
        if (!crdValues.isEmpty()) {
            crdChart.values(crdValues);
        }
        Release crds = new Release(this, "crd", crdChart.build());
        crds.overrideLogicalId("karpenter_crd");
        adopt(crds, config, CRD_CHART);
        Release controller = new Release(
                this,
                "controller",
                chart(config, token, CONTROLLER_CHART)
                        .skipCrds(true)
                        .values(List.of(controllerValues))
                        .dependsOn(List.of(crds))
                        .build());
        controller.overrideLogicalId("karpenter");
        adopt(controller, config, CONTROLLER_CHART);
    }

    /** A release another tool installed under the same name is imported (id "namespace/name"), not installed again. */
    private static void adopt(Release release, ClusterConfig config, String name) {
        if (config.adoption().adoptsRelease(config.namespace(), name)) {
            release.importFrom(TerraformStrings.literal(config.namespace() + "/" + name));
        }
    }

    private static ReleaseConfig.Builder chart(ClusterConfig config, Optional<RegistryToken> token, String chart) {
        ReleaseConfig.Builder release = ReleaseConfig.builder()
                .name(chart)
                .chart(chart)
                .repository(config.controller().chartRepository().url())
                .version(config.release().chartVersion())
                .namespace(config.namespace())
                .createNamespace(true);
        token.ifPresent(t -> release.repositoryUsername(t.userName())
                .repositoryPassword(t.password())
                .lifecycle(TerraformResourceLifecycle.builder()
                        .ignoreChanges(List.of(ROTATING_PASSWORD))
                        .build()));
        return release;
    }
}
