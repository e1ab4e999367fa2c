package dev.platform.karpenter.release;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a Karpenter generation accepts in its pools and node classes, for checks at synth: settings that only one
 * generation knows fail with a message instead of being silently dropped or rejected by the webhook at apply.
 */
public record NodePoolRules(ApiGeneration generation) {

    public static NodePoolRules of(KarpenterRelease release) {
        return new NodePoolRules(release.apiGeneration());
    }

    /** 0.x removes empty nodes after Provisioner.spec.ttlSecondsAfterEmpty; 1.x replaced it with consolidateAfter. */
    public boolean hasTtlSecondsAfterEmpty() {
        return generation == ApiGeneration.V1ALPHA5;
    }

    /** 1.x delays consolidation by NodePool.spec.disruption.consolidateAfter; 0.x consolidates as soon as it can. */
    public boolean hasConsolidateAfter() {
        return generation == ApiGeneration.V1;
    }

    /** AMI families the node class accepts, as the tfvars spell them: 0.30 predates AL2023 support (added in 0.33). */
    public List<String> amiFamilies() {
        return generation == ApiGeneration.V1 ? List.of("Bottlerocket", "AL2023", "AL2") : List.of("Bottlerocket", "AL2");
    }

    /**
     * 1.x: deleting the EC2NodeClass waits, through Karpenter's termination finalizer, until its nodes are gone.
     * 0.x: Provisioner and AWSNodeTemplate have no finalizer, so an uninstall hook has to wait for the nodes.
     */
    public boolean nodeClassDeletionWaitsForNodes() {
        return generation == ApiGeneration.V1;
    }

    /** Label keys Karpenter 1.x lets a NodePool set in the karpenter.k8s.aws domain (its CRD's CEL rule, 1.14). */
    private static final Set<String> V1_AWS_LABELS = Set.of("instance-tenancy", "capacity-reservation-type",
            "capacity-reservation-id", "capacity-reservation-interruptible", "ec2nodeclass",
            "instance-encryption-in-transit-supported", "instance-category", "instance-hypervisor", "instance-family",
            "instance-generation", "instance-local-nvme", "instance-size", "instance-cpu", "instance-cpu-manufacturer",
            "instance-cpu-sustained-clock-speed-mhz", "instance-memory", "instance-ebs-bandwidth",
            "instance-network-bandwidth", "instance-gpu-name", "instance-gpu-manufacturer", "instance-gpu-count",
            "instance-gpu-memory", "instance-accelerator-name", "instance-accelerator-manufacturer",
            "instance-accelerator-count", "instance-capability-flex", "placement-group-id", "placement-group-partition");
    /** Well-known labels 0.x accepts although their domains are restricted (v1alpha5 WellKnownLabels). */
    private static final Set<String> V1ALPHA5_WELL_KNOWN = Set.of("topology.kubernetes.io/zone",
            "topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "kubernetes.io/arch", "kubernetes.io/os",
            "node.kubernetes.io/windows-build", "karpenter.sh/capacity-type");
    /** Label domains 0.x reserves for Kubernetes and Karpenter, and the subdomains it still allows. */
    private static final List<String> V1ALPHA5_RESTRICTED_DOMAINS = List.of("kubernetes.io", "k8s.io", "karpenter.sh",
            "karpenter.k8s.aws");
    private static final List<String> V1ALPHA5_DOMAIN_EXCEPTIONS = List.of("kops.k8s.io", "node.kubernetes.io",
            "node-restriction.kubernetes.io");

    /**
     * Why Karpenter refuses {@code key} as a label or requirement key of a pool, if it does: 1.x as its NodePool CRD
     * validates (karpenter.sh and karpenter.k8s.aws reserved but for listed keys; kubernetes.io/hostname and the
     * pool's own label), 0.x as its webhook did (reserved domains, well-known labels allowed).
     */
    public Optional<String> restrictedLabel(String key) {
        String domain = key.contains("/") ? key.substring(0, key.indexOf('/')) : "";
        if (key.equals("kubernetes.io/hostname") || key.equals(generation.poolLabel())) {
            return Optional.of("the label \"" + key + "\" is set by Karpenter or Kubernetes");
        }
        if (generation == ApiGeneration.V1) {
            if (domain.endsWith("karpenter.sh") && !key.equals("karpenter.sh/capacity-type")) {
                return Optional.of("the label domain \"karpenter.sh\" is reserved");
            }
            if (domain.endsWith("karpenter.k8s.aws") && !(domain.equals("karpenter.k8s.aws")
                    && V1_AWS_LABELS.contains(key.substring(domain.length() + 1)))) {
                return Optional.of("the label domain \"karpenter.k8s.aws\" is reserved but for its well-known labels");
            }
            return Optional.empty();
        }
        if (V1ALPHA5_WELL_KNOWN.contains(key) || key.startsWith("karpenter.k8s.aws/instance-")
                || V1ALPHA5_DOMAIN_EXCEPTIONS.stream().anyMatch(domain::endsWith)) {
            return Optional.empty();
        }
        return V1ALPHA5_RESTRICTED_DOMAINS.stream().filter(domain::endsWith).findFirst()
                .map(restricted -> "the label domain \"" + restricted + "\" is reserved");
    }

    /** The name of the generation's pool kind, for messages. */
    public String poolKind() {
        return generation == ApiGeneration.V1 ? "NodePool" : "Provisioner";
    }
}
