package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Op;
import com.hashicorp.cdktf.Precondition;
import com.hashicorp.cdktf.TerraformResourceLifecycle;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import imports.aws.eks_access_entry.EksAccessEntry;
import imports.aws.eks_access_entry.EksAccessEntryConfig;
import java.util.List;
import software.constructs.Construct;

/**
 * An EKS access entry that lets nodes with a role join the cluster: EC2_LINUX, or EC2_WINDOWS where a node class
 * launches Windows nodes (it adds the group Windows nodes' kube-proxy needs, and Linux nodes join with it alike).
 */
final class NodeAccessEntry {
    private NodeAccessEntry() {}

    /**
     * @param configMapOnly the way out when the cluster's authentication mode is CONFIG_MAP, where access entries do not
     *                      exist: it fails the plan instead of the apply failing with EKS's InvalidRequestException
     */
    static EksAccessEntry of(
            Construct scope,
            String id,
            ClusterConfig config,
            ClusterFacts facts,
            String roleArn,
            String configMapOnly) {
        return new EksAccessEntry(
                scope,
                id,
                EksAccessEntryConfig.builder()
                        .clusterName(facts.clusterName())
                        .principalArn(roleArn)
                        .type(RenderedPools.of(config).launchesWindows() ? "EC2_WINDOWS" : "EC2_LINUX")
                        .lifecycle(TerraformResourceLifecycle.builder()
                                .precondition(List.of(Precondition.builder()
                                        .condition(Op.neq(facts.authenticationMode(), "CONFIG_MAP"))
                                        .errorMessage(configMapOnly)
                                        .build()))
                                .build())
                        .build());
    }
}
