package dev.platform.karpenter.nodepools.manifest;

import java.util.Map;

/**
 * One Kubernetes object as written to YAML: apiVersion, kind, metadata and a typed spec.
 *
 * @param <S> the spec record of the kind
 */
public record KubernetesObject<S>(String apiVersion, String kind, ObjectMeta metadata, S spec) {

    /** Unset and empty fields are left out of the YAML. */
    public record ObjectMeta(String name, String namespace, Map<String, String> annotations) {
        public static ObjectMeta named(String name) {
            return new ObjectMeta(name, null, Map.of());
        }
    }

    /** An apiVersion and kind: the type of the objects a generation renders. */
    public record Type(String apiVersion, String kind) {
        public <S> KubernetesObject<S> named(String name, S spec) {
            return of(apiVersion, kind, name, spec);
        }
    }

    public static <S> KubernetesObject<S> of(String apiVersion, String kind, String name, S spec) {
        return new KubernetesObject<>(apiVersion, kind, ObjectMeta.named(name), spec);
    }
}
