package dev.platform.karpenter.nodepools;

import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.aws.ClusterAccess;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.monitoring.MonitoringManifests;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import imports.helm.release.Release;
import java.util.List;
import java.util.Map;
import software.constructs.Construct;

/**
 * {@code <cluster>-nodepools}: the pools and their node class, applied by Helm once the controller and its CRDs
 * exist, plus the same manifests as a plain file and as an output for {@code kubectl apply}.
 *
 * <p>Destroy order is what makes Karpenter clean up: this stack is destroyed before the controller's, and the
 * release's uninstall returns (within {@link #RELEASE_TIMEOUT_SECONDS}) only once Karpenter has terminated the
 * pools' nodes: on 1.x through the node class's finalizer, on 0.x through the release's uninstall hook.
 */
public class NodePoolsStack extends ClusterStack {
    /** The stack is named {@code <cluster_name>-nodepools}. */
    public static final String CONCERN = "nodepools";
    /** Placeholder for the node role in the plain file when the role is only known after the IAM stack applies. */
    public static final String NODE_ROLE_PLACEHOLDER = "${NODE_ROLE_NAME}";
    /**
     * Install is immediate (Helm has nothing to wait for on custom resources); uninstall waits this long for
     * Karpenter to drain and terminate the pools' nodes.
     */
    static final int RELEASE_TIMEOUT_SECONDS = 900;

    static final String RELEASE_NAME = "karpenter-nodepools";
    /** The PrometheusRule and dashboards of the monitoring setting, when it deploys any. */
    static final String MONITORING_RELEASE_NAME = "karpenter-monitoring";

    private final PlainManifestFile plainFile;
    /** The references to the IAM stack this stack holds. */
    private final List<String> readFromOtherStacks;

    public NodePoolsStack(Construct scope, ClusterConfig config, ControllerStack controller, PoolDocuments documents) {
        super(scope, config.stackName(CONCERN));
        AwsProviders.regional(this, config);
        addDependency(controller);
        ClusterAccess cluster = new ClusterAccess(this, "cluster", config);
        ManifestChart chart = new ManifestChart(this, "manifest-chart");
        Release.Builder.create(this, "pools")
                .provider(cluster.helm())
                .name(RELEASE_NAME)
                .namespace(config.namespace())
                .chart(chart.path())
                .values(List.of(documents.helmValues()))
                .wait(true)
                .timeout(RELEASE_TIMEOUT_SECONDS)
                .build();
        List<Map<String, Object>> monitoring = MonitoringManifests.of(config);
        if (!monitoring.isEmpty()) {
            // The same two-file chart, a release of its own: the rules and dashboards outlive no pool, need no wait.
            Release.Builder.create(this, "monitoring")
                    .provider(cluster.helm())
                    .name(MONITORING_RELEASE_NAME)
                    .namespace(config.namespace())
                    .chart(chart.path())
                    .values(List.of(TerraformStrings.literal(ManifestYaml.document(Map.of("manifests", monitoring)))))
                    .build();
        }
        output(
                "manifests_yaml",
                documents.manifestsYaml(),
                "The applied pools and node class as YAML, for kubectl apply -f -");
        plainFile = documents.plainFile();
        readFromOtherStacks = documents.readFromOtherStacks();
    }

    @Override
    protected List<String> readFromOtherStacks() {
        return readFromOtherStacks;
    }

    /**
     * The same manifests as a file for {@code kubectl apply -f}: the app writes it after synthesis (a stack writes
     * nothing while it is constructed).
     */
    public PlainManifestFile plainManifestFile() {
        return plainFile;
    }
}
