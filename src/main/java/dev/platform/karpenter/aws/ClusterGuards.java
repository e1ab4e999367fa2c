package dev.platform.karpenter.aws;

import com.hashicorp.cdktf.Postcondition;
import com.hashicorp.cdktf.TerraformResourceLifecycle;
import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.nodepools.manifest.RenderedNodeClass;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.KubernetesRange;
import dev.platform.karpenter.release.KubernetesSupport;
import dev.platform.karpenter.release.NodePoolRules;
import imports.aws.data_aws_eks_cluster.DataAwsEksCluster;
import imports.aws.data_aws_eks_cluster.DataAwsEksClusterConfig;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import software.constructs.Construct;

/**
 * Guards, as postconditions on the {@code aws_eks_cluster} data source that every stack of a cluster reads: the
 * cluster must not run EKS Auto Mode (unless beside_auto_mode), and its Kubernetes version must be one the chart
 * supports and one the node AMI family has AMIs for. A data
 * source is read while planning, before anything is applied, so whichever stack {@code deploy '*'} plans first
 * stops with the message, and nothing of the cluster's Karpenter is created. Postconditions (not check blocks, which
 * only warn); written in Terraform's own syntax against {@code self}, so the plan shows the exact versions compared.
 */
public final class ClusterGuards {
    /**
     * The last cluster's guards, made once for the four stacks that carry them (an app builds a cluster's stacks one
     * after another).
     */
    private static WeakReference<ClusterConfig> guardedConfig = new WeakReference<>(null);

    private static TerraformResourceLifecycle guards;

    private ClusterGuards() {}

    /** The lifecycle of a stack's {@code aws_eks_cluster} data source, holding every guard of {@code config}. */
    public static synchronized TerraformResourceLifecycle lifecycle(ClusterConfig config) {
        if (guardedConfig.get() != config) {
            guards = TerraformResourceLifecycle.builder()
                    .postcondition(postconditions(config))
                    .build();
            guardedConfig = new WeakReference<>(config);
        }
        return guards;
    }

    /** The {@code aws_eks_cluster} data source (id {@code cluster}) of {@code scope}, carrying the guards. */
    public static DataAwsEksCluster guardedCluster(Construct scope, ClusterConfig config) {
        DataAwsEksClusterConfig read = DataAwsEksClusterConfig.builder()
                .name(config.clusterName())
                .lifecycle(lifecycle(config))
                .build();
        return new DataAwsEksCluster(scope, "cluster", read);
    }

    static List<Postcondition> postconditions(ClusterConfig config) {
        List<Postcondition> guards = new ArrayList<>();
        if (!config.besideAutoMode()) { // a deliberate migration to Auto Mode, on a release that can run beside it
            guards.add(noAutoMode(config.clusterName()));
        }
        if (!config.upgradeOverride()) { // a step taken outside the cluster's range deliberately (bin/upgrade-path)
            guards.add(chartSupportsTheCluster(config.release(), config.clusterName()));
        }
        RenderedPools pools = RenderedPools.of(config);
        for (AmiFamily family : pools.imageFamilies()) {
            RenderedNodeClass first = pools.generations().stream()
                    .flatMap(generation -> generation.nodeClasses().stream())
                    .filter(nodeClass -> nodeClass.imageFamily() == family)
                    .findFirst()
                    .orElseThrow();
            family.newestKubernetesMinor().ifPresent(newest -> guards.add(amisExist(config, first, newest)));
        }
        pools.generations().stream()
                .flatMap(generation -> generation.nodeClasses().stream())
                .filter(nodeClass -> nodeClass.os() == AmiFamily.Os.WINDOWS)
                .findFirst()
                .ifPresent(windows -> guards.add(windowsNeedsIpv4(config, windows)));
        return guards;
    }

    /**
     * EKS Auto Mode (compute_config enabled) runs AWS's own Karpenter, which launches and removes the cluster's nodes:
     * a second Karpenter would act on the same pending pods and shared karpenter.sh resources. compute_config is a
     * list of at most one block, empty or null when the cluster has never had Auto Mode.
     */
    private static Postcondition noAutoMode(String clusterName) {
        return Postcondition.builder()
                .condition("${!anytrue([for c in coalesce(self.compute_config, []) : c.enabled == true])}")
                .errorMessage("EKS cluster " + clusterName + " runs EKS Auto Mode (compute_config enabled): AWS"
                        + " already runs Karpenter there, and a second one would fight it over the same nodes. To"
                        + " install this one beside it for a deliberate migration to Auto Mode, set beside_auto_mode"
                        + " = true (Karpenter " + KarpenterRelease.releasesBesideAutoMode() + "; docs/guides/"
                        + "auto-mode.md). Nothing was changed.")
                .build();
    }

    private static Postcondition chartSupportsTheCluster(KarpenterRelease release, String clusterName) {
        KubernetesRange range = release.supportedKubernetes();
        String supported = IntStream.rangeClosed(range.minMinor(), range.maxMinor())
                .mapToObj(minor -> ConfigException.quoteWhole("1." + minor))
                .collect(Collectors.joining(", "));
        return Postcondition.builder()
                .condition("${contains([" + supported + "], self.version)}")
                .errorMessage("Karpenter " + release.chartVersion() + " supports Kubernetes " + range
                        + ", but EKS cluster "
                        + clusterName
                        + " runs Kubernetes ${self.version}: set karpenter_chart_version to a release that "
                        + "supports it (${lookup(" + SupportAdvice.LOOKUP_TABLE
                        + ", self.version, \"none of the releases this project "
                        + "supports does yet\")}). Nothing was changed.")
                .build();
    }

    /** The releases to advise per Kubernetes version, as a Terraform object: the same text in every cluster's guard. */
    private static final class SupportAdvice {
        static final String LOOKUP_TABLE = KubernetesSupport.supportedReleasesByKubernetesVersion().entrySet().stream()
                .map(entry -> ConfigException.quoteWhole(entry.getKey()) + " = "
                        + ConfigException.quoteWhole(entry.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /**
     * Windows nodes cannot run on an IPv6 cluster (EKS's Windows considerations), which the data source shows
     * (kubernetes_network_config.ip_family). Whether the cluster has Windows support turned on (the
     * enable-windows-ipam key of the amazon-vpc-cni ConfigMap in kube-system) is no AWS API fact: the README names it
     * as a precondition.
     */
    private static Postcondition windowsNeedsIpv4(ClusterConfig config, RenderedNodeClass windows) {
        return Postcondition.builder()
                .condition("${!anytrue([for c in coalesce(self.kubernetes_network_config, []) : c.ip_family =="
                        + " \"ipv6\"])}")
                .errorMessage("node class \"" + windows.name() + "\" launches "
                        + windows.family().setting()
                        + " nodes, but EKS cluster " + config.clusterName() + " runs IPv6, which Windows nodes do not"
                        + " support. Use a Linux AMI family for it, or an IPv4 cluster. Nothing was changed.")
                .build();
    }

    private static Postcondition amisExist(ClusterConfig config, RenderedNodeClass nodeClass, int newestKubernetes) {
        AmiFamily family = nodeClass.imageFamily();
        // The family's source is the user's text (a spec alias may hold anything its CRD allows): literal.
        String source = TerraformStrings.literal(nodeClass.imageFamilySource());
        String setting = source.substring(0, source.indexOf(" = "));
        boolean alias = setting.endsWith(".alias");
        List<String> others = AmiFamily.acceptedByAll(NodePoolRules.of(config.release())).stream()
                .filter(other -> other != family
                        && other.hasAlias()
                        && other.os() == family.os()
                        && other.newestKubernetesMinor().isEmpty())
                .map(other -> ConfigException.quoteWhole(
                        alias ? other.alias(PoolsAndNodeClasses.LATEST_AMI) : other.setting()))
                .toList();
        return Postcondition.builder()
                .condition("${tonumber(split(\".\", self.version)[1]) <= " + newestKubernetes + "}")
                .errorMessage(source + " cannot run on EKS cluster " + config.clusterName()
                        + ": it runs Kubernetes ${self.version}, and EKS publishes no " + family.setting()
                        + " AMI for Kubernetes 1." + (newestKubernetes + 1) + " or later. Set "
                        + setting + " to "
                        + String.join(" or ", others) + ". Nothing was changed.")
                .build();
    }
}
