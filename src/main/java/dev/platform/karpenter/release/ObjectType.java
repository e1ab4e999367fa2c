package dev.platform.karpenter.release;

/** A Kubernetes object type as the API server serves it: group, version and kind. */
public record ObjectType(String group, String version, String kind) {
    /** As objects name it: "karpenter.sh/v1". */
    public String apiVersion() {
        return group + "/" + version;
    }
}
