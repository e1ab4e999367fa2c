package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.BlockDeviceMapping;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.config.Setting;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Karpenter 0.30-0.31: karpenter.sh/v1alpha5 Provisioner and karpenter.k8s.aws/v1alpha1 AWSNodeTemplate, as in
 * the seed's default-provisioner.yaml. Nodes get their identity from the controller's
 * settings.aws.defaultInstanceProfile, so the node template names no role or profile.
 */
final class V1Alpha5Manifests extends GenerationManifests {
    static final KubernetesObject.Type PROVISIONER =
            KubernetesObject.Type.from(ApiGeneration.V1ALPHA5.kinds().pool());
    static final KubernetesObject.Type AWS_NODE_TEMPLATE =
            KubernetesObject.Type.from(ApiGeneration.V1ALPHA5.kinds().nodeClass());
    /** The label Karpenter 0.x puts on the nodes it launches. */
    static final String POOL_LABEL = ApiGeneration.V1ALPHA5.poolLabel();
    /** The hook's Job gives up this much before Helm's timeout, so its failure reaches Helm as the error. */
    static final int HOOK_MARGIN_SECONDS = 60;

    private static final Pattern DURATION_PART = Pattern.compile("([0-9]+)(s|m|h)");

    public record ProvisionerSpec(
            List<Requirement> requirements,
            Map<String, String> labels,
            List<Taint> taints,
            Limits limits,
            ProviderRef providerRef,
            Consolidation consolidation,
            Integer ttlSecondsAfterEmpty,
            Long ttlSecondsUntilExpired) {}

    public record Limits(Map<String, Object> resources) {}

    public record ProviderRef(String name) {}

    public record Consolidation(boolean enabled) {}

    public record AwsNodeTemplateSpec(
            String amiFamily,
            Map<String, String> subnetSelector,
            Map<String, String> securityGroupSelector,
            List<BlockDeviceMapping> blockDeviceMappings,
            Map<String, String> tags) {}

    V1Alpha5Manifests() {
        super(ApiGeneration.V1ALPHA5, PROVISIONER, AWS_NODE_TEMPLATE);
    }

    @Override
    Map<List<String>, String> ownedPoolFields() {
        return Map.of(
                List.of("providerRef"), GenerationManifests.NODE_CLASS_REF_REASON,
                List.of("provider"), GenerationManifests.NODE_CLASS_REF_REASON);
    }

    @Override
    Map<List<String>, String> ownedNodeClassFields() {
        return Map.of(List.of("instanceProfile"), GenerationManifests.V0_INSTANCE_PROFILE_REASON);
    }

    /** A Provisioner keeps at the top of its spec what a NodePool keeps in its template. */
    @Override
    Map<Setting<?>, List<String>> typedPaths() {
        Map<Setting<?>, List<String>> paths = new LinkedHashMap<>();
        paths.put(SettingsCatalogue.NODE_LABELS, List.of("labels"));
        paths.put(SettingsCatalogue.NODE_TAINTS, List.of("taints"));
        paths.put(SettingsCatalogue.CPU_LIMIT, List.of("limits", "resources", "cpu"));
        paths.put(SettingsCatalogue.MEMORY_LIMIT, List.of("limits", "resources", "memory"));
        paths.put(SettingsCatalogue.CONSOLIDATION, List.of("consolidation", "enabled"));
        paths.put(SettingsCatalogue.EXPIRE_AFTER, List.of("ttlSecondsUntilExpired"));
        return paths;
    }

    /** An AWSNodeTemplate selects subnets by a map of tags. */
    @Override
    String subnetSelectorField() {
        return "subnetSelector";
    }

    /** A Provisioner holds its requirements at the top of its spec. */
    @Override
    List<String> requirementsPath() {
        return List.of("requirements");
    }

    /** The node role is not named: nodes take the controller's default instance profile. */
    @Override
    AwsNodeTemplateSpec nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName) {
        return new AwsNodeTemplateSpec(
                nodeClass.amiFamily().setting(),
                nodeClass.discovery(),
                nodeClass.discovery(),
                nodeClass.amiFamily().blockDevices(),
                nodeClass.tags());
    }

    @Override
    ProvisionerSpec poolSpec(TypedPool typed) {
        PoolSettings pool = typed.settings();
        Map<String, Object> resources = PoolRequirements.limits(typed);
        return new ProvisionerSpec(
                PoolRequirements.of(typed),
                pool.labels(),
                PoolRequirements.taints(pool),
                new Limits(resources),
                new ProviderRef(pool.nodeClass()),
                new Consolidation(pool.consolidation()),
                emptyNodeTtl(pool).orElse(null),
                pool.expireAfter().equals("Never") ? null : seconds(pool.expireAfter()));
    }

    /**
     * When a Provisioner removes an empty node: ttl_seconds_after_empty, else, beside a v1beta1 NodePool (the 0.32
     * transition), the consolidate_after its NodePool gets without consolidation, so that both remove empty nodes
     * alike (the NodePool's WhenEmpty; "Never" is no TTL).
     */
    private static Optional<Integer> emptyNodeTtl(PoolSettings pool) {
        return pool.ttlSecondsAfterEmpty()
                .or(() -> pool.consolidation()
                        ? Optional.empty()
                        : pool.consolidateAfter()
                                .filter(after -> !after.equals("Never"))
                                .map(after -> Math.toIntExact(seconds(after))));
    }

    /** "720h" or "1h30m" in seconds: v1alpha5 takes a TTL in seconds where v1 takes a duration. */
    static long seconds(String duration) {
        long total = 0;
        Matcher part = DURATION_PART.matcher(duration);
        while (part.find()) {
            long value = Long.parseLong(part.group(1));
            total += switch (part.group(2)) {
                case "h" -> value * 3600;
                case "m" -> value * 60;
                default -> value;
            };
        }
        return total;
    }

    /**
     * Provisioners and AWSNodeTemplates have no finalizer: Helm's uninstall would return at once while the
     * nodes, owned by the Provisioner, are still being drained, and the controller stack destroyed next would
     * leave them (and their EC2 instances) behind. The hook deletes this release's Provisioners (by name: others in
     * the cluster are not its business; RBAC allows deleting only those) and waits until none of their nodes is left.
     */
    @Override
    public List<Object> uninstallHook(PoolsAndNodeClasses settings, String namespace, int timeoutSeconds) {
        List<String> names = settings.pools().stream().map(PoolSettings::name).toList();
        long deadline = timeoutSeconds - HOOK_MARGIN_SECONDS;
        List<String> delete = new ArrayList<>(List.of("delete", "provisioners.karpenter.sh"));
        delete.addAll(names);
        delete.addAll(List.of("--ignore-not-found", "--wait=true", "--timeout=" + deadline + "s"));
        return UninstallHook.of(
                namespace,
                settings.uninstallHookImage(),
                deadline,
                POOL_LABEL,
                List.of(
                        new UninstallHook.PolicyRule(
                                List.of("karpenter.sh"),
                                List.of("provisioners"),
                                List.of("get", "list", "watch"),
                                List.of()),
                        new UninstallHook.PolicyRule(
                                List.of("karpenter.sh"), List.of("provisioners"), List.of("delete"), names),
                        new UninstallHook.PolicyRule(
                                List.of(""), List.of("nodes"), List.of("get", "list", "watch"), List.of())),
                List.of(
                        new UninstallHook.Step("delete-provisioners", delete),
                        // With no such node left (or none ever), wait --for=delete returns at once.
                        new UninstallHook.Step(
                                "wait-for-nodes",
                                List.of(
                                        "wait",
                                        "--for=delete",
                                        "nodes",
                                        "--selector=" + POOL_LABEL + " in (" + String.join(",", names) + ")",
                                        "--timeout=" + deadline + "s"))));
    }

    @Override
    public String plainFileName() {
        return "default-provisioner.yaml";
    }
}
