package dev.platform.karpenter.config;

import dev.platform.karpenter.release.NodePoolRules;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Operating system of the nodes Karpenter launches, with everything that follows from it: the spelling of
 * amiFamily (every generation) and of the v1 amiSelectorTerms alias, the format of its AMI release versions, the
 * block devices its node classes get, the operating system its nodes report, and the newest Kubernetes version EKS
 * publishes its AMIs for. Custom has no alias: its AMIs are selected by id, name or tags, and its nodes boot with the
 * node class's own userData.
 */
public enum AmiFamily implements SettingChoice {
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
            Optional.empty(),
            Os.LINUX),
    /** Accepted from Karpenter 0.35 on (upstream #5604); its AMIs bring suitable volumes. */
    AL2023("AL2023", "al2023", "v\\d{8}", "v20240625", List.of(), Optional.empty(), Os.LINUX),
    /** EKS publishes Amazon Linux 2 AMIs up to Kubernetes 1.32 and none for 1.33 or later. */
    AL2("AL2", "al2", "v\\d{8}", "v20240625", List.of(), Optional.of(32), Os.LINUX),
    /** The Windows aliases take only "latest" (the v1 CRD's rule); Karpenter sizes the root volume itself. */
    WINDOWS2019("Windows2019", "windows2019", "(?!)", "", List.of(), Optional.empty(), Os.WINDOWS),
    WINDOWS2022("Windows2022", "windows2022", "(?!)", "", List.of(), Optional.empty(), Os.WINDOWS),
    /** Accepted from Karpenter 1.9 on (its CRD's enum). */
    WINDOWS2025("Windows2025", "windows2025", "(?!)", "", List.of(), Optional.empty(), Os.WINDOWS),
    /**
     * AMIs of the user's choice, bootstrapped by the node class's userData: no alias, no volumes of the project's.
     * Karpenter gives a Custom class's instance types the linux system (every release's getOS), so Windows AMIs
     * take a Windows family with their own amiSelectorTerms.
     */
    CUSTOM("Custom", "", "(?!)", "", List.of(), Optional.empty(), Os.LINUX);

    /** The operating systems nodes report in kubernetes.io/os. */
    public enum Os {
        LINUX,
        WINDOWS;

        /** As the label kubernetes.io/os spells it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String setting;
    private final String alias;
    private final Pattern versionFormat;
    private final String exampleVersion;
    private final List<BlockDeviceMapping> blockDevices;
    private final Optional<Integer> newestKubernetesMinor;
    private final Os os;

    AmiFamily(
            String setting,
            String alias,
            String versionFormat,
            String exampleVersion,
            List<BlockDeviceMapping> blockDevices,
            Optional<Integer> newestKubernetesMinor,
            Os os) {
        this.setting = setting;
        this.alias = alias;
        this.versionFormat = Pattern.compile(versionFormat);
        this.exampleVersion = exampleVersion;
        this.blockDevices = blockDevices;
        this.newestKubernetesMinor = newestKubernetesMinor;
        this.os = os;
    }

    /** The spelling of ami_family, and of amiFamily in AWSNodeTemplate and v1beta1 EC2NodeClass. */
    @Override
    public String setting() {
        return setting;
    }

    /** Whether the v1 node class can name this family by an amiSelectorTerms alias (Custom cannot). */
    public boolean hasAlias() {
        return !alias.isEmpty();
    }

    /** The v1 amiSelectorTerms alias of an AMI release of this family: "bottlerocket@latest", "al2023@v20240625". */
    public String alias(String amiVersion) {
        if (!hasAlias()) {
            throw new IllegalStateException(setting + " has no alias");
        }
        return alias + "@" + amiVersion;
    }

    /** The family an amiSelectorTerms alias names ("al2023@v20240625": AL2023), empty for a family it does not know. */
    public static Optional<AmiFamily> ofAlias(String alias) {
        String family = alias.split("@", 2)[0];
        return Arrays.stream(values())
                .filter(value -> value.hasAlias() && value.alias.equals(family))
                .findFirst();
    }

    /** The family an amiFamily field names ("AL2023"), empty for one this project does not know (Ubuntu). */
    public static Optional<AmiFamily> ofSetting(String amiFamily) {
        return Arrays.stream(values())
                .filter(value -> value.setting.equals(amiFamily))
                .findFirst();
    }

    /** Whether {@code version} is spelled as this family's AMI releases are (v20240625, Bottlerocket's v1.10.0). */
    public boolean isReleaseVersion(String version) {
        return versionFormat.matcher(version).matches();
    }

    /** Whether ami_version may name a release of this family at all (the Windows aliases and Custom: "latest" only). */
    public boolean hasReleaseVersions() {
        return !exampleVersion.isEmpty();
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

    /** The operating system Karpenter gives its nodes' instance types (Custom: linux). */
    public Os os() {
        return os;
    }

    /** The releases whose node classes accept this family. */
    @Override
    public ReleaseSpan releases() {
        return this == AL2023 || this == WINDOWS2025
                ? ReleaseSpan.where(apis -> acceptedBy(NodePoolRules.of(apis)))
                : ReleaseSpan.ALL;
    }

    /** Whether the declared generations' node classes accept this family (AL2023 came with 0.35, Windows2025 with 1.9). */
    public boolean acceptedBy(NodePoolRules rules) {
        return switch (this) {
            case AL2023 -> rules.al2023();
            case WINDOWS2025 -> rules.windows2025();
            default -> true;
        };
    }

    /** The families the declared generations' node classes accept, in the order of this enum. */
    public static List<AmiFamily> acceptedByAll(NodePoolRules rules) {
        return Arrays.stream(values())
                .filter(family -> family.acceptedBy(rules))
                .toList();
    }
}
