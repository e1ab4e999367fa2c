package dev.platform.karpenter.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of a cluster's tfvars, defined once: key, type, default and what it does (in the spirit of a
 * Terraform module's variables.tf). {@link Settings} reads only catalogued keys and takes their defaults from here;
 * a test checks terraform.tfvars.example and the README against it (every key documented, every default shown in
 * the example equal to this one).
 */
public final class SettingsCatalogue {
    /** What a setting holds, as tfvars writes it. */
    public enum Type {
        STRING,
        BOOL,
        NUMBER,
        LIST,
        MAP,
        OBJECT,
        OBJECT_LIST
    }

    /**
     * @param key          the tfvars key
     * @param type         its type
     * @param defaultValue the value when it is unset or null, as the reader would return it (Long for numbers); null
     *                     when it is required, has no value, or is derived from another setting
     * @param pool         whether a node_pools entry may set it too
     * @param description  what it does, in a few words
     */
    public record Setting(String key, Type type, Object defaultValue, boolean pool, String description) {
        public Optional<Object> defaultOptional() {
            return Optional.ofNullable(defaultValue);
        }
    }

    private static final Map<String, Setting> SETTINGS = new LinkedHashMap<>();

    static {
        add("cluster_name", Type.STRING, null, false, "name of the existing EKS cluster (required)");
        add("region", Type.STRING, null, false, "AWS region of the cluster (required)");
        add("karpenter_chart_version", Type.STRING, null, false, "Karpenter chart version (required)");
        add("retired_api", Type.STRING, null, false, "API generation whose pools are no longer declared");
        add(
                "upgrade_override",
                Type.STRING,
                null,
                false,
                "chart version whose deploy skips the step and Kubernetes checks");
        add("karpenter_namespace", Type.STRING, "karpenter", false, "namespace of the controller");
        add("karpenter_service_account", Type.STRING, "karpenter", false, "service account of the controller");
        add("controller_identity", Type.STRING, "irsa", false, "irsa or pod_identity");
        add("irsa_use_name_prefix", Type.BOOL, false, false, "controller role with a generated name");
        add("create_iam_role", Type.BOOL, false, false, "create a node role instead of reusing one");
        add("node_group_name", Type.STRING, "default", false, "managed node group whose role nodes reuse");
        add("iam_role_arn", Type.STRING, null, false, "node role to reuse instead of the node group's");
        add("iam_role_access_entry", Type.BOOL, true, false, "access entry for an iam_role_arn no node group has");
        add("queue_name", Type.STRING, null, false, "interruption queue (default: the cluster name)");
        add("queue_kms_key_id", Type.STRING, null, false, "customer managed KMS key of the queue");
        add("sts_regional_endpoints", Type.BOOL, false, false, "service account uses regional STS endpoints");
        add("controller_replicas", Type.NUMBER, 2L, false, "controller pods");
        add("controller_resources", Type.OBJECT, Map.of(), false, "requests and limits of the controller");
        add("controller_tolerations", Type.OBJECT_LIST, List.of(), false, "tolerations of the controller pods");
        add("controller_affinity", Type.OBJECT, Map.of(), false, "affinity of the controller pods");
        add("ami_family", Type.STRING, AmiFamily.BOTTLEROCKET.setting(), false, "operating system of the nodes");
        add(
                "ami_version",
                Type.STRING,
                PoolsAndNodeClasses.LATEST_AMI,
                false,
                "1.x: AMI release of the node class alias");
        add(
                "discovery_tag_key",
                Type.STRING,
                "karpenter.sh/discovery",
                false,
                "tag of the subnets and security groups");
        add("discovery_tag_value", Type.STRING, null, false, "its value (default: the cluster name)");
        add("capacity_types", Type.LIST, List.of("spot", "on-demand"), true, "spot and/or on-demand");
        add("architectures", Type.LIST, List.of("amd64"), true, "amd64 and/or arm64");
        add("instance_categories", Type.LIST, List.of("c", "m", "r"), true, "EC2 instance categories (empty: any)");
        add("instance_generation_min", Type.NUMBER, 3L, true, "oldest EC2 instance generation");
        add("cpu_limit", Type.NUMBER, 1000L, true, "most vCPUs a pool launches");
        add("memory_limit", Type.STRING, "1000Gi", true, "most memory a pool launches");
        add("consolidation", Type.BOOL, true, true, "replace or remove underused nodes");
        add("consolidate_after", Type.STRING, null, true, "1.x: delay before consolidating (Karpenter's 1m)");
        add("expire_after", Type.STRING, "720h", true, "node lifetime");
        add("ttl_seconds_after_empty", Type.NUMBER, null, true, "0.x: remove empty nodes after this many seconds");
        add("node_labels", Type.MAP, Map.of(), true, "labels of the nodes");
        add("node_taints", Type.OBJECT_LIST, List.of(), true, "taints of the nodes");
        add("node_requirements", Type.OBJECT_LIST, List.of(), true, "extra scheduling requirements");
        add(
                "uninstall_hook_image",
                Type.STRING,
                PoolsAndNodeClasses.DEFAULT_UNINSTALL_HOOK_IMAGE,
                false,
                "0.x: kubectl image of the uninstall hook");
        add("node_pools", Type.OBJECT_LIST, List.of(), false, "more pools beside \"default\"");
        add(
                "node_pool_spec",
                Type.OBJECT,
                Map.of(),
                false,
                "upstream NodePool (0.x: Provisioner) spec fields of \"default\"");
        add(
                "node_class_spec",
                Type.OBJECT,
                Map.of(),
                false,
                "upstream EC2NodeClass (0.x: AWSNodeTemplate) spec fields of \"default\"");
        add("node_classes", Type.OBJECT_LIST, List.of(), false, "more node classes beside \"default\"");
        add("tags", Type.MAP, Map.of(), false, "tags of every AWS resource and of what Karpenter launches");
        add("state_bucket", Type.STRING, null, false, "S3 bucket of the Terraform state (empty: local)");
        add("state_region", Type.STRING, null, false, "its region (default: region)");
        add("state_key_prefix", Type.STRING, "karpenter", false, "prefix of the state object keys");
    }

    /** Keys only an entry of node_pools takes (beside the catalogue's pool settings), with what they do. */
    public static final Map<String, String> POOL_ENTRY_KEYS = Map.of(
            "name", "the pool's name",
            "node_class", "the node class its nodes are launched with (default \"default\")",
            "spec", "upstream NodePool (0.x: Provisioner) spec fields of the pool");
    /** The keys an entry of node_classes takes, with what they do. */
    public static final Map<String, String> NODE_CLASS_ENTRY_KEYS = Map.of(
            "name", "the node class's name",
            "ami_family", "operating system of its nodes (default: ami_family)",
            "ami_version", "1.x: AMI release of its alias",
            "spec", "upstream EC2NodeClass (0.x: AWSNodeTemplate) spec fields of the node class");

    private SettingsCatalogue() {}

    private static void add(String key, Type type, Object defaultValue, boolean pool, String description) {
        SETTINGS.put(key, new Setting(key, type, defaultValue, pool, description));
    }

    public static List<Setting> all() {
        return List.copyOf(SETTINGS.values());
    }

    public static Optional<Setting> find(String key) {
        return Optional.ofNullable(SETTINGS.get(key));
    }

    /** The catalogued setting; reading an uncatalogued key is a mistake in the code, not in the input. */
    static Setting get(String key) {
        Setting setting = SETTINGS.get(key);
        if (setting == null) {
            throw new IllegalStateException("setting " + key + " is not in SettingsCatalogue");
        }
        return setting;
    }

    /** The default of a setting that has one. */
    @SuppressWarnings("unchecked")
    static <T> T defaultOf(String key) {
        return (T) get(key).defaultOptional()
                .orElseThrow(
                        () -> new IllegalStateException("setting " + key + " has no default in SettingsCatalogue"));
    }
}
