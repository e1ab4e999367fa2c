package dev.platform.karpenter.nodepools.manifest;

/**
 * One Kubernetes object as written to YAML: apiVersion, kind, metadata and a typed spec.
 *
 * @param <S> the spec record of the kind
 */
public record KubernetesObject<S>(String apiVersion, String kind, ObjectMeta metadata, S spec) {

    public record ObjectMeta(String name) {
    }

    public static <S> KubernetesObject<S> of(String apiVersion, String kind, String name, S spec) {
        return new KubernetesObject<>(apiVersion, kind, new ObjectMeta(name), spec);
    }
}
