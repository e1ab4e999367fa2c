package dev.platform.karpenter.release;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The Kubernetes API a Karpenter release serves for its pools and node classes. */
public enum ApiGeneration {
    /** Karpenter 0.30 and 0.31 (0.32 beside v1beta1): karpenter.sh/v1alpha5 Provisioner and karpenter.k8s.aws/v1alpha1 AWSNodeTemplate. */
    V1ALPHA5(
            new Kinds(
                    new ObjectType("karpenter.sh", "v1alpha5", "Provisioner"),
                    new ObjectType("karpenter.k8s.aws", "v1alpha1", "AWSNodeTemplate")),
            AdmissionDefault.V1ALPHA5),
    /** Karpenter 0.32 to 0.37: karpenter.sh/v1beta1 NodePool and karpenter.k8s.aws/v1beta1 EC2NodeClass. */
    V1BETA1(
            new Kinds(
                    new ObjectType("karpenter.sh", "v1beta1", "NodePool"),
                    new ObjectType("karpenter.k8s.aws", "v1beta1", "EC2NodeClass")),
            List.of()),
    /** Karpenter 1.x: karpenter.sh/v1 NodePool and karpenter.k8s.aws/v1 EC2NodeClass. */
    V1(
            new Kinds(
                    new ObjectType("karpenter.sh", "v1", "NodePool"),
                    new ObjectType("karpenter.k8s.aws", "v1", "EC2NodeClass")),
            List.of());

    /** A generation's pool type (Provisioner, then NodePool) and node class type (AWSNodeTemplate, then EC2NodeClass). */
    public record Kinds(ObjectType pool, ObjectType nodeClass) {}

    /**
     * A requirement the release's admission webhook adds to a pool that has no requirement on any of
     * {@code unlessAnyOf}, on create and update: the stored object, which Karpenter reads, carries it.
     */
    public record AdmissionDefault(String key, String operator, List<String> values, Set<String> unlessAnyOf) {
        private static final Set<String> INSTANCE_SHAPE = Set.of(
                "node.kubernetes.io/instance-type",
                "karpenter.k8s.aws/instance-family",
                "karpenter.k8s.aws/instance-category",
                "karpenter.k8s.aws/instance-generation");

        /** Upstream's v1alpha5 Provisioner.SetDefaults, in its order; v1beta1 dropped the defaulting webhook. */
        static final List<AdmissionDefault> V1ALPHA5 = List.of(
                new AdmissionDefault("kubernetes.io/os", "In", List.of("linux"), Set.of("kubernetes.io/os")),
                new AdmissionDefault("kubernetes.io/arch", "In", List.of("amd64"), Set.of("kubernetes.io/arch")),
                new AdmissionDefault(
                        "karpenter.sh/capacity-type", "In", List.of("on-demand"), Set.of("karpenter.sh/capacity-type")),
                new AdmissionDefault(
                        "karpenter.k8s.aws/instance-category", "In", List.of("c", "m", "r"), INSTANCE_SHAPE),
                new AdmissionDefault("karpenter.k8s.aws/instance-generation", "Gt", List.of("2"), INSTANCE_SHAPE));
    }

    private final Kinds kinds;
    private final List<AdmissionDefault> admissionDefaults;

    ApiGeneration(Kinds kinds, List<AdmissionDefault> admissionDefaults) {
        this.kinds = kinds;
        this.admissionDefaults = admissionDefaults;
    }

    public Kinds kinds() {
        return kinds;
    }

    /** The requirements this generation's webhook adds to a pool written without them, in the order it adds them. */
    public List<AdmissionDefault> admissionDefaults() {
        return admissionDefaults;
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
