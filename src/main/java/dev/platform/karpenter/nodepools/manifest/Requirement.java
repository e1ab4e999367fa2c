package dev.platform.karpenter.nodepools.manifest;

import java.util.List;

/** A node selector requirement, the same shape in v1alpha5 and v1: key, operator, values. */
public record Requirement(String key, String operator, List<String> values) {
    static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
    static final String ARCH = "kubernetes.io/arch";
    static final String OS = "kubernetes.io/os";
    static final String INSTANCE_CATEGORY = "karpenter.k8s.aws/instance-category";
    static final String INSTANCE_GENERATION = "karpenter.k8s.aws/instance-generation";

    static Requirement in(String key, List<String> values) {
        return new Requirement(key, "In", values);
    }
}
