package dev.platform.karpenter.config;

import dev.platform.karpenter.versions.NodePoolRules;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Operating system of the nodes Karpenter launches, with everything that follows from it: the spelling of
 * amiFamily (0.x, v1beta1) and of the v1 amiSelectorTerms alias, the format of its AMI release versions, the block
 * devices its node classes get, and the newest Kubernetes version EKS publishes its AMIs for.
 */
public enum AmiFamily implements SettingValue {
    /**
     * Two volumes, as upstream's Bottlerocket example and Karpenter's defaults: a 4Gi OS volume and a 20Gi data
     * volume for images, logs and ephemeral storage.
     */
    BOTTLEROCKET(
            "Bottlerocket",
            "bottlerocket",
            "v\\d+\\.\\d+\\.\\d+",
            "v1.10.0",
            List.of(BlockDeviceMapping.gp3("/dev/xvda", "4Gi"), BlockDeviceMapping.gp3("/dev/xvdb", "20Gi")),
            Optional.empty()),
    /** Accepted from Karpenter 0.35 on (upstream #5604); its AMIs bring suitable volumes. */
    AL2023("AL2023", "al2023", "v\\d{8}", "v20240625", List.of(), Optional.empty()),
    /** EKS publishes Amazon Linux 2 AMIs up to Kubernetes 1.32 and none for 1.33 or later. */
    AL2("AL2", "al2", "v\\d{8}", "v20240625", List.of(), Optional.of(32));

    private final String setting;
    private final String alias;
    private final Pattern versionFormat;
    private final String exampleVersion;
    private final List<BlockDeviceMapping> blockDevices;
    private final Optional<Integer> newestKubernetesMinor;

    AmiFamily(
            String setting,
            String alias,
            String versionFormat,
            String exampleVersion,
            List<BlockDeviceMapping> blockDevices,
            Optional<Integer> newestKubernetesMinor) {
        this.setting = setting;
        this.alias = alias;
        this.versionFormat = Pattern.compile(versionFormat);
        this.exampleVersion = exampleVersion;
        this.blockDevices = blockDevices;
        this.newestKubernetesMinor = newestKubernetesMinor;
    }

    /** The spelling of ami_family, and of amiFamily in AWSNodeTemplate and v1beta1 EC2NodeClass. */
    @Override
    public String setting() {
        return setting;
    }

    /** The v1 amiSelectorTerms alias of an AMI release of this family: "bottlerocket@latest", "al2023@v20240625". */
    public String alias(String amiVersion) {
        return alias + "@" + amiVersion;
    }

    /** Whether {@code version} is spelled as this family's AMI releases are (v20240625, Bottlerocket's v1.10.0). */
    public boolean isReleaseVersion(String version) {
        return versionFormat.matcher(version).matches();
    }

    /** A release version of this family, for messages. */
    public String exampleVersion() {
        return exampleVersion;
    }

    /** The node class volumes of this family; none where its AMIs bring suitable defaults. */
    public List<BlockDeviceMapping> blockDevices() {
        return blockDevices;
    }

    /** The newest Kubernetes minor EKS publishes AMIs of this family for (AL2: 32), empty where EKS keeps up. */
    public Optional<Integer> newestKubernetesMinor() {
        return newestKubernetesMinor;
    }

    /** The releases whose node classes accept this family. */
    @Override
    public ReleaseSpan releases() {
        return this == AL2023 ? ReleaseSpan.where(apis -> acceptedBy(NodePoolRules.of(apis))) : ReleaseSpan.ALL;
    }

    /** Whether the declared generations' node classes accept this family (AL2023 came with 0.35). */
    public boolean acceptedBy(NodePoolRules rules) {
        return this != AL2023 || rules.al2023();
    }

    /** The families the declared generations' node classes accept, in the order of this enum. */
    public static List<AmiFamily> acceptedByAll(NodePoolRules rules) {
        return Arrays.stream(values())
                .filter(family -> family.acceptedBy(rules))
                .toList();
    }
}
