package dev.platform.karpenter.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.Setting;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.testing.Docs;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every setting the settings reference shows that the changelog's baseline did not have is named in the changelog. */
class ChangelogTest {
    /** The settings on the day the changelog starts (its "Baseline" section). */
    private static final Set<String> BASELINE = Set.of(
            "ami_family",
            "ami_version",
            "architectures",
            "beside_auto_mode",
            "capacity_types",
            "chart_repository",
            "cluster_name",
            "consolidate_after",
            "consolidation",
            "controller_affinity",
            "controller_identity",
            "controller_replicas",
            "controller_resources",
            "controller_tolerations",
            "controller_values",
            "cpu_limit",
            "create_iam_role",
            "discovery_tag_key",
            "discovery_tag_value",
            "expire_after",
            "iam_role_access_entry",
            "iam_role_arn",
            "instance_categories",
            "instance_generation_min",
            "irsa_use_name_prefix",
            "karpenter_chart_version",
            "karpenter_namespace",
            "karpenter_service_account",
            "memory_limit",
            "name",
            "node_class",
            "node_class_spec",
            "node_classes",
            "node_group_name",
            "node_labels",
            "node_pool_spec",
            "node_pools",
            "node_requirements",
            "node_taints",
            "queue_kms_key_id",
            "queue_name",
            "region",
            "retired_api",
            "spec",
            "state_bucket",
            "state_key_prefix",
            "state_region",
            "sts_regional_endpoints",
            "tags",
            "ttl_seconds_after_empty",
            "uninstall_hook_image",
            "upgrade_override");

    @Test
    void everySettingAddedSinceTheBaselineHasAnEntry() {
        String changelog = Docs.page("CHANGELOG.md");
        List<String> added = SettingsCatalogue.all().stream()
                .map(Setting::key)
                .distinct()
                .filter(key -> !BASELINE.contains(key))
                .toList();
        assertThat(added)
                .as("settings added since the baseline, each to be named in CHANGELOG.md as `key`")
                .allSatisfy(key -> assertThat(changelog).contains("`" + key + "`"));
        assertThat(changelog).contains("## [Unreleased]", "## Baseline");
    }
}
