package dev.platform.karpenter.release;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the declared generations accept in their pools and node classes, for checks at synth: settings that no
 * declared generation knows fail with a message instead of being silently dropped or rejected by the webhook at apply.
 *
 * @param rendered the generations whose objects are rendered (0.32 before retiring: v1alpha5 and v1beta1)
 * @param al2023   whether the node class accepts the AL2023 AMI family (added in v0.35.0, upstream #5604; config.AmiFamily says the rest)
 * @param windows2025 whether the node class accepts the Windows2025 AMI family (the 1.9 CRD's enum)
 */
public record NodePoolRules(List<ApiGeneration> rendered, boolean al2023, boolean windows2025) {

    /**
     * Tag keys Karpenter sets on what it launches and its node-class webhooks reject in spec.tags (the union over
     * v1alpha1 AWSNodeTemplate, v1beta1 and v1 EC2NodeClass, so a key accepted now is not rejected by a later
     * generation on the way to 1.x).
     */
    static final List<String> RESERVED_TAG_KEYS = List.of(
            "karpenter.sh/provisioner-name",
            "karpenter.sh/managed-by",
            "karpenter.sh/nodepool",
            "karpenter.sh/nodeclaim",
            "karpenter.k8s.aws/ec2nodeclass",
            "eks:eks-cluster-name");
    /** Karpenter's CEL rule rejects every key starting with this (the cluster ownership tag). */
    static final String RESERVED_TAG_PREFIX = "kubernetes.io/cluster";

    public NodePoolRules {
        rendered = List.copyOf(rendered);
    }

    public static NodePoolRules of(KarpenterRelease release) {
        return of(DeclaredApis.retiring(release));
    }

    public static NodePoolRules of(DeclaredApis apis) {
        KarpenterRelease release = apis.release();
        boolean al2023 =
                !apis.rendered().contains(ApiGeneration.V1ALPHA5) && release.has(KarpenterMinor.Feature.AL2023);
        return new NodePoolRules(apis.rendered(), al2023, release.has(KarpenterMinor.Feature.WINDOWS_2025));
    }

    /**
     * 0.x removes empty nodes after Provisioner.spec.ttlSecondsAfterEmpty; later generations replaced it with
     * consolidateAfter (the converted v1beta1 pool of 0.32 takes it as WhenEmpty after that many seconds).
     */
    public boolean hasTtlSecondsAfterEmpty() {
        return rendered.contains(ApiGeneration.V1ALPHA5);
    }

    /** v1beta1 and v1 delay consolidation by NodePool.spec.disruption.consolidateAfter; v1alpha5 has no such field. */
    public boolean hasConsolidateAfter() {
        return newest() != ApiGeneration.V1ALPHA5;
    }

    /** v1beta1 accepts consolidateAfter only with WhenEmpty (consolidation = false); v1 with both policies. */
    public boolean consolidateAfterNeedsConsolidationOff() {
        return newest() == ApiGeneration.V1BETA1;
    }

    /**
     * v1beta1 and v1: deleting the EC2NodeClass waits, through Karpenter's termination finalizer, until its nodes
     * are gone. v1alpha5: Provisioner and AWSNodeTemplate have no finalizer, so an uninstall hook has to wait.
     */
    public boolean nodeClassDeletionWaitsForNodes() {
        return !rendered.contains(ApiGeneration.V1ALPHA5);
    }

    /**
     * Why Karpenter reserves a node tag key, empty when it does not: Karpenter sets these itself on every instance,
     * volume and launch template, and its node class rejects them in spec.tags.
     */
    public static Optional<String> reservedTagKey(String key) {
        if (key.startsWith(RESERVED_TAG_PREFIX)) {
            return Optional.of("keys starting with \"" + RESERVED_TAG_PREFIX + "\"");
        }
        return RESERVED_TAG_KEYS.contains(key) ? Optional.of("\"" + key + "\"") : Optional.empty();
    }

    /**
     * v1 EC2NodeClass selects the EKS-optimized AMI by an alias "family@version", so the AMI release can be pinned;
     * earlier generations pick the newest AMI of the family and cannot be pinned through this setting.
     */
    public boolean hasAmiAlias() {
        return newest() == ApiGeneration.V1;
    }

    /** Label keys Karpenter 1.x lets a NodePool set in the karpenter.k8s.aws domain (its CRD's CEL rule in the newest release). */
    /**
     * Extended resources the AWS provider registers as its instance types' own (its v1 labels.go adds them to
     * Karpenter's WellKnownResources): a NodeOverlay whose capacity sets one fails Karpenter's runtime validation and
     * applies nowhere. The CRD already refuses cpu, memory, ephemeral-storage and pods.
     */
    public static final Set<String> OVERLAY_REFUSED_RESOURCES = Set.of(
            "vpc.amazonaws.com/pod-eni",
            "aws.amazon.com/neuron",
            "aws.amazon.com/neuroncore",
            "habana.ai/gaudi",
            "vpc.amazonaws.com/efa");

    private static final Set<String> V1_AWS_LABELS = Set.of(
            "instance-tenancy",
            "capacity-reservation-type",
            "capacity-reservation-id",
            "capacity-reservation-interruptible",
            "ec2nodeclass",
            "instance-encryption-in-transit-supported",
            "instance-category",
            "instance-hypervisor",
            "instance-family",
            "instance-generation",
            "instance-local-nvme",
            "instance-size",
            "instance-cpu",
            "instance-cpu-manufacturer",
            "instance-cpu-sustained-clock-speed-mhz",
            "instance-memory",
            "instance-ebs-bandwidth",
            "instance-network-bandwidth",
            "instance-gpu-name",
            "instance-gpu-manufacturer",
            "instance-gpu-count",
            "instance-gpu-memory",
            "instance-accelerator-name",
            "instance-accelerator-manufacturer",
            "instance-accelerator-count",
            "instance-capability-flex",
            "placement-group-id",
            "placement-group-partition");
    /** Well-known labels 0.x accepts although their domains are restricted (v1alpha5 WellKnownLabels). */
    private static final Set<String> V0_WELL_KNOWN = Set.of(
            "topology.kubernetes.io/zone",
            "topology.kubernetes.io/region",
            "node.kubernetes.io/instance-type",
            "kubernetes.io/arch",
            "kubernetes.io/os",
            "node.kubernetes.io/windows-build",
            "karpenter.sh/capacity-type");
    /** Label domains 0.x reserves for Kubernetes and Karpenter, and the subdomains it still allows. */
    private static final List<String> V0_RESTRICTED_DOMAINS =
            List.of("kubernetes.io", "k8s.io", "karpenter.sh", "karpenter.k8s.aws");

    private static final List<String> V0_DOMAIN_EXCEPTIONS =
            List.of("kops.k8s.io", "node.kubernetes.io", "node-restriction.kubernetes.io");

    /**
     * Why Karpenter refuses {@code key} as a label or requirement key of a pool, if any rendered generation does: 1.x
     * as its NodePool CRD validates (karpenter.sh and karpenter.k8s.aws reserved but for listed keys), 0.x as its
     * webhook and v1beta1 CRD did (reserved domains, well-known labels allowed); kubernetes.io/hostname and the
     * pool's own label always.
     */
    public Optional<String> restrictedLabel(String key) {
        return rendered.stream()
                .map(generation -> restrictedLabel(generation, key))
                .flatMap(Optional::stream)
                .findFirst();
    }

    private static Optional<String> restrictedLabel(ApiGeneration generation, String key) {
        String domain = key.contains("/") ? key.substring(0, key.indexOf('/')) : "";
        if (key.equals("kubernetes.io/hostname") || key.equals(generation.poolLabel())) {
            return Optional.of("the label \"" + key + "\" is set by Karpenter or Kubernetes");
        }
        if (generation == ApiGeneration.V1) {
            if (domain.endsWith("karpenter.sh") && !key.equals("karpenter.sh/capacity-type")) {
                return Optional.of("the label domain \"karpenter.sh\" is reserved");
            }
            if (domain.endsWith("karpenter.k8s.aws")
                    && !(domain.equals("karpenter.k8s.aws")
                            && V1_AWS_LABELS.contains(key.substring(domain.length() + 1)))) {
                return Optional.of("the label domain \"karpenter.k8s.aws\" is reserved but for its well-known labels");
            }
            return Optional.empty();
        }
        if (V0_WELL_KNOWN.contains(key)
                || key.startsWith("karpenter.k8s.aws/instance-")
                || V0_DOMAIN_EXCEPTIONS.stream().anyMatch(domain::endsWith)) {
            return Optional.empty();
        }
        return V0_RESTRICTED_DOMAINS.stream()
                .filter(domain::endsWith)
                .findFirst()
                .map(restricted -> "the label domain \"" + restricted + "\" is reserved");
    }

    /** The name of the newest generation's pool kind, for messages. */
    public String poolKind() {
        return newest() == ApiGeneration.V1ALPHA5 ? "Provisioner" : "NodePool";
    }

    private ApiGeneration newest() {
        return rendered.get(rendered.size() - 1);
    }
}
