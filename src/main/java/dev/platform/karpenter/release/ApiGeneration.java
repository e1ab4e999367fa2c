package dev.platform.karpenter.release;

import java.util.Arrays;
import java.util.Optional;

/** The Kubernetes API a Karpenter release serves for its pools and node classes. */
public enum ApiGeneration {
    /** Karpenter 0.30 and 0.31 (0.32 beside v1beta1): karpenter.sh/v1alpha5 Provisioner and karpenter.k8s.aws/v1alpha1 AWSNodeTemplate. */
    V1ALPHA5(new Kinds(
            new ObjectType("karpenter.sh", "v1alpha5", "Provisioner"),
            new ObjectType("karpenter.k8s.aws", "v1alpha1", "AWSNodeTemplate"))),
    /** Karpenter 0.32 to 0.37: karpenter.sh/v1beta1 NodePool and karpenter.k8s.aws/v1beta1 EC2NodeClass. */
    V1BETA1(new Kinds(
            new ObjectType("karpenter.sh", "v1beta1", "NodePool"),
            new ObjectType("karpenter.k8s.aws", "v1beta1", "EC2NodeClass"))),
    /** Karpenter 1.x: karpenter.sh/v1 NodePool and karpenter.k8s.aws/v1 EC2NodeClass. */
    V1(new Kinds(
            new ObjectType("karpenter.sh", "v1", "NodePool"),
            new ObjectType("karpenter.k8s.aws", "v1", "EC2NodeClass")));

    /** A generation's pool type (Provisioner, then NodePool) and node class type (AWSNodeTemplate, then EC2NodeClass). */
    public record Kinds(ObjectType pool, ObjectType nodeClass) {}

    private final Kinds kinds;

    ApiGeneration(Kinds kinds) {
        this.kinds = kinds;
    }

    public Kinds kinds() {
        return kinds;
    }

    /** The generation tfvars and messages spell so ("v1alpha5", "v1beta1", "v1"), empty for any other text. */
    public static Optional<ApiGeneration> named(String spelling) {
        return Arrays.stream(values())
                .filter(generation -> DeclaredApis.spelling(generation).equals(spelling))
                .findFirst();
    }

    /** The generation before this one, empty for the first. */
    public Optional<ApiGeneration> previous() {
        return ordinal() == 0 ? Optional.empty() : Optional.of(values()[ordinal() - 1]);
    }

    /**
     * The label Karpenter puts on each node naming its pool, also the tag on its instances that the controller
     * policy keys on; pools may not set it themselves. Only v1alpha5 named it after the Provisioner.
     */
    public String poolLabel() {
        return this == V1ALPHA5 ? "karpenter.sh/provisioner-name" : "karpenter.sh/nodepool";
    }
}
