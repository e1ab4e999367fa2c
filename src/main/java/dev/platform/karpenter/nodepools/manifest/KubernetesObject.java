package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.release.ObjectType;
import java.util.Map;

/**
 * One Kubernetes object as written to YAML: apiVersion, kind, metadata and a typed spec.
 *
 * @param <S> the spec record of the kind
 */
public record KubernetesObject<S>(String apiVersion, String kind, ObjectMeta metadata, S spec) {

    /** Unset and empty fields are left out of the YAML. */
    public record ObjectMeta(String name, String namespace, Map<String, ?> labels, Map<String, ?> annotations) {
        public static ObjectMeta named(String name) {
            return new ObjectMeta(name, null, Map.of(), Map.of());
        }
    }

    /** An API group, version and kind: the type of the objects a generation renders. */
    public record Type(String group, String version, String kind) {
        /** The type the release package declares (a generation's pool or node class, an add-on kind). */
        public static Type from(ObjectType type) {
            return new Type(type.group(), type.version(), type.kind());
        }

        public <S> KubernetesObject<S> named(String name, S spec) {
            return of(apiVersion(), kind, name, spec);
        }

        /** A cluster-scoped object of this type with labels and annotations. */
        public <S> KubernetesObject<S> named(ObjectMeta metadata, S spec) {
            return new KubernetesObject<>(apiVersion(), kind, metadata, spec);
        }

        /** As objects name it: "karpenter.sh/v1". */
        public String apiVersion() {
            return group + "/" + version;
        }

        /** As kubectl names the resource: "nodepools.karpenter.sh". */
        public String resource() {
            return plural() + "." + group;
        }

        /** The resource at this version only: "nodepools.v1.karpenter.sh". */
        public String versionedResource() {
            return plural() + "." + version + "." + group;
        }

        private String plural() {
            // English plurals, as the CRDs spell them: ec2nodeclasses, provisioners.
            String lower = kind.toLowerCase(java.util.Locale.ROOT);
            return lower + (lower.endsWith("s") ? "es" : "s");
        }
    }

    public static <S> KubernetesObject<S> of(String apiVersion, String kind, String name, S spec) {
        return new KubernetesObject<>(apiVersion, kind, ObjectMeta.named(name), spec);
    }
}
