package dev.platform.karpenter.nodepools.manifest;

/** tfvars lines that set every node-pool setting of a generation away from its default, for rendering tests. */
public final class PoolSettingsExamples {
    public static final String[] EVERY_V0_SETTING = {
        "ami_family = \"AL2\"",
        "capacity_types = [\"on-demand\"]",
        "architectures = [\"amd64\", \"arm64\"]",
        "instance_categories = []",
        "cpu_limit = 8",
        "memory_limit = \"32Gi\"",
        "consolidation = false",
        "ttl_seconds_after_empty = 30",
        "expire_after = \"Never\"",
        "node_labels = { team = \"platform\" }",
        "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }, { key = \"gpu\", effect = \"NoExecute\" }]",
        "node_requirements = [{ key = \"example.com/spare\", operator = \"Exists\" }]",
        "node_pools = [{ name = \"batch\", cpu_limit = 4 }]",
        "tags = { team = \"platform\", \"cost-center\" = \"42\" }"
    };

    public static final String[] EVERY_V1_SETTING = {
        "ami_family = \"AL2023\"",
        "discovery_tag_key = \"example.com/karpenter\"",
        "capacity_types = [\"spot\"]",
        "instance_generation_min = 6",
        "cpu_limit = 8",
        "memory_limit = \"32Gi\"",
        "consolidation = false",
        "consolidate_after = \"1h30m\"",
        "expire_after = \"Never\"",
        "node_labels = { team = \"platform\" }",
        "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }]",
        "node_requirements = [{ key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Lt\", values = [\"33\"] }]",
        "node_pools = [{ name = \"on-demand\", capacity_types = [\"on-demand\"] }]",
        "ami_version = \"v20240625\"",
        "tags = { team = \"platform\", \"cost-center\" = \"42\" }"
    };

    private PoolSettingsExamples() {}
}
