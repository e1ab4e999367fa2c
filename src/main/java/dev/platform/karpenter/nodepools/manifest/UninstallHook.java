package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.nodepools.manifest.KubernetesObject.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Helm pre-delete hook: a Job that runs kubectl commands with just the permissions they need, before Helm deletes
 * the release's objects. Helm waits for the Job (up to the release timeout) and fails the uninstall if it fails.
 *
 * <p>No shell: each command is a container of its own (init containers run one after the other, then the last one),
 * so any image with kubectl on its PATH works, including the shell-less registry.k8s.io/kubectl. The pod passes
 * Pod Security "restricted": non-root, RuntimeDefault seccomp, no privilege escalation, every capability dropped.
 */
final class UninstallHook {
    static final String NAME = "karpenter-nodepools-uninstall";

    public record ServiceAccount(String apiVersion, String kind, ObjectMeta metadata) {}

    public record ClusterRole(String apiVersion, String kind, ObjectMeta metadata, List<PolicyRule> rules) {}

    /** resourceNames empty: every object of the resources. */
    public record PolicyRule(
            List<String> apiGroups, List<String> resources, List<String> verbs, List<String> resourceNames) {}

    public record ClusterRoleBinding(
            String apiVersion, String kind, ObjectMeta metadata, RoleRef roleRef, List<Subject> subjects) {}

    public record RoleRef(String apiGroup, String kind, String name) {}

    public record Subject(String kind, String name, String namespace) {}

    public record JobSpec(int backoffLimit, long activeDeadlineSeconds, PodTemplate template) {}

    public record PodTemplate(PodSpec spec) {}

    public record PodSpec(
            String serviceAccountName,
            String restartPolicy,
            Affinity affinity,
            PodSecurityContext securityContext,
            List<Container> initContainers,
            List<Container> containers,
            List<Volume> volumes) {}

    /**
     * A fixed unprivileged user: an image may declare root (or no user at all), which runAsNonRoot alone would
     * refuse to start.
     */
    public record PodSecurityContext(
            boolean runAsNonRoot, long runAsUser, long runAsGroup, SeccompProfile seccompProfile) {}

    public record SeccompProfile(String type) {}

    public record SecurityContext(
            boolean allowPrivilegeEscalation, boolean readOnlyRootFilesystem, Capabilities capabilities) {}

    public record Capabilities(List<String> drop) {}

    /** kubectl's discovery cache: the root filesystem is read-only. */
    public record Volume(String name, EmptyDir emptyDir) {}

    public record EmptyDir(String sizeLimit) {}

    public record VolumeMount(String name, String mountPath) {}

    public record Affinity(NodeAffinity nodeAffinity) {}

    public record NodeAffinity(NodeSelector requiredDuringSchedulingIgnoredDuringExecution) {}

    public record NodeSelector(List<NodeSelectorTerm> nodeSelectorTerms) {}

    public record NodeSelectorTerm(List<Requirement> matchExpressions) {}

    public record Container(
            String name,
            String image,
            List<String> command,
            Resources resources,
            SecurityContext securityContext,
            List<VolumeMount> volumeMounts) {}

    /** Requests as a record, not a Map.of: that map's iteration order changes from one JVM to the next. */
    public record Resources(Requests requests) {}

    public record Requests(String cpu, String memory) {}

    /** nobody, which every image accepts. */
    static final long USER = 65534;

    static final String CACHE_DIR = "/kube-cache";

    /** One kubectl invocation: the container's name and kubectl's arguments. */
    record Step(String name, List<String> kubectlArgs) {}

    private UninstallHook() {}

    /**
     * @param avoidNodesWith a node label key the Job's pod must not run on: the nodes it waits for disappear
     * @param steps          kubectl invocations run in order; together they must finish within {@code deadlineSeconds}
     */
    static List<Object> of(
            String namespace,
            String image,
            long deadlineSeconds,
            String avoidNodesWith,
            List<PolicyRule> rules,
            List<Step> steps) {
        NodeAffinity offTheWaitedNodes = new NodeAffinity(new NodeSelector(
                List.of(new NodeSelectorTerm(List.of(new Requirement(avoidNodesWith, "DoesNotExist", List.of()))))));
        List<Container> containers =
                steps.stream().map(step -> container(image, step)).toList();
        PodSpec pod = new PodSpec(
                NAME,
                "Never",
                new Affinity(offTheWaitedNodes),
                new PodSecurityContext(true, USER, USER, new SeccompProfile("RuntimeDefault")),
                containers.subList(0, containers.size() - 1),
                containers.subList(containers.size() - 1, containers.size()),
                List.of(new Volume("kube-cache", new EmptyDir("64Mi"))));
        return List.of(
                new ServiceAccount("v1", "ServiceAccount", meta(namespace, "-10")),
                new ClusterRole("rbac.authorization.k8s.io/v1", "ClusterRole", meta(null, "-10"), rules),
                new ClusterRoleBinding(
                        "rbac.authorization.k8s.io/v1",
                        "ClusterRoleBinding",
                        meta(null, "-10"),
                        new RoleRef("rbac.authorization.k8s.io", "ClusterRole", NAME),
                        List.of(new Subject("ServiceAccount", NAME, namespace))),
                new KubernetesObject<>(
                        "batch/v1",
                        "Job",
                        meta(namespace, "0"),
                        new JobSpec(2, deadlineSeconds, new PodTemplate(pod))));
    }

    private static Container container(String image, Step step) {
        List<String> command = new java.util.ArrayList<>(List.of("kubectl", "--cache-dir=" + CACHE_DIR));
        command.addAll(step.kubectlArgs());
        return new Container(
                step.name(),
                image,
                List.copyOf(command),
                new Resources(new Requests("50m", "64Mi")),
                new SecurityContext(false, true, new Capabilities(List.of("ALL"))),
                List.of(new VolumeMount("kube-cache", CACHE_DIR)));
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
        return new ObjectMeta(NAME, namespace, Map.of(), annotations);
    }
}
