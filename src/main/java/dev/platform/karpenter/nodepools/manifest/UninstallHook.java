package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.nodepools.manifest.KubernetesObject.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Helm pre-delete hook: a Job that runs a kubectl script with just the permissions it needs, before Helm deletes
 * the release's objects. Helm waits for the Job (up to the release timeout) and fails the uninstall if it fails.
 */
final class UninstallHook {
    static final String NAME = "karpenter-nodepools-uninstall";

    public record ServiceAccount(String apiVersion, String kind, ObjectMeta metadata) {
    }

    public record ClusterRole(String apiVersion, String kind, ObjectMeta metadata, List<PolicyRule> rules) {
    }

    public record PolicyRule(List<String> apiGroups, List<String> resources, List<String> verbs) {
    }

    public record ClusterRoleBinding(String apiVersion, String kind, ObjectMeta metadata, RoleRef roleRef, List<Subject> subjects) {
    }

    public record RoleRef(String apiGroup, String kind, String name) {
    }

    public record Subject(String kind, String name, String namespace) {
    }

    public record JobSpec(int backoffLimit, long activeDeadlineSeconds, PodTemplate template) {
    }

    public record PodTemplate(PodSpec spec) {
    }

    public record PodSpec(String serviceAccountName, String restartPolicy, Affinity affinity, PodSecurityContext securityContext,
            List<Container> containers) {
    }

    public record PodSecurityContext(boolean runAsNonRoot) {
    }

    public record Affinity(NodeAffinity nodeAffinity) {
    }

    public record NodeAffinity(NodeSelector requiredDuringSchedulingIgnoredDuringExecution) {
    }

    public record NodeSelector(List<NodeSelectorTerm> nodeSelectorTerms) {
    }

    public record NodeSelectorTerm(List<Requirement> matchExpressions) {
    }

    public record Container(String name, String image, List<String> command, Resources resources) {
    }

    /** Requests as a record, not a Map.of: that map's iteration order changes from one JVM to the next. */
    public record Resources(Requests requests) {
    }

    public record Requests(String cpu, String memory) {
    }

    private UninstallHook() {
    }

    /**
     * @param avoidNodesWith a node label key the Job's pod must not run on: the nodes it waits for disappear
     * @param script         a POSIX shell script; it must finish within {@code deadlineSeconds}
     */
    static List<Object> of(String namespace, String image, long deadlineSeconds, String avoidNodesWith,
            List<PolicyRule> rules, String script) {
        NodeAffinity offTheWaitedNodes = new NodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(
                List.of(new Requirement(avoidNodesWith, "DoesNotExist", List.of()))))));
        Container kubectl = new Container("kubectl", image, List.of("/bin/sh", "-ec", script),
                new Resources(new Requests("50m", "64Mi")));
        PodSpec pod = new PodSpec(NAME, "Never", new Affinity(offTheWaitedNodes), new PodSecurityContext(true), List.of(kubectl));
        return List.of(
                new ServiceAccount("v1", "ServiceAccount", meta(namespace, "-10")),
                new ClusterRole("rbac.authorization.k8s.io/v1", "ClusterRole", meta(null, "-10"), rules),
                new ClusterRoleBinding("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", meta(null, "-10"),
                        new RoleRef("rbac.authorization.k8s.io", "ClusterRole", NAME),
                        List.of(new Subject("ServiceAccount", NAME, namespace))),
                new KubernetesObject<>("batch/v1", "Job", meta(namespace, "0"),
                        new JobSpec(2, deadlineSeconds, new PodTemplate(pod))));
    }

    /**
     * Hook objects are made before the Job (lower weight) and removed once it succeeded or before a rerun.
     * {@code namespace} is null for cluster-scoped kinds.
     */
    private static ObjectMeta meta(String namespace, String weight) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("helm.sh/hook", "pre-delete");
        annotations.put("helm.sh/hook-weight", weight);
        annotations.put("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded");
        return new ObjectMeta(NAME, namespace, annotations);
    }
}
