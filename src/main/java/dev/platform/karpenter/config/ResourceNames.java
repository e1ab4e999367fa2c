package dev.platform.karpenter.config;

import java.util.List;

/**
 * Names of the AWS resources the stacks create, with the AWS length limits they must respect. Checked at synth
 * so a long cluster name fails with a message instead of half-way through an apply.
 */
public final class ResourceNames {
    public static final int IAM_ROLE_NAME_MAX = 64;
    public static final int IAM_NAME_PREFIX_MAX = 38;
    public static final int EVENT_RULE_NAME_MAX = 64;
    /** Longest suffix an interruption rule name may have, so that the longest valid cluster name still fits. */
    public static final int EVENT_RULE_SUFFIX_MAX = 13;
    /** CloudWatch alarm names: up to 255 characters. */
    public static final int ALARM_NAME_MAX = 255;
    /** The interruption stack's alarms: the queue's oldest message, and the rules' failed deliveries. */
    public static final String QUEUE_AGE_ALARM = "InterruptionQueueAge";

    public static final String RULE_FAILURES_ALARM = "InterruptionRuleFailures";

    private final ClusterConfig config;

    ResourceNames(ClusterConfig config) {
        this.config = config;
    }

    /** Fixed controller role name, used when irsa_use_name_prefix is false. */
    public String controllerRole() {
        return "KarpenterIRSA-" + config.clusterName();
    }

    /** Controller role name prefix, used when irsa_use_name_prefix is true; AWS appends a unique suffix. */
    public String controllerRolePrefix() {
        return controllerRole() + "-";
    }

    /** Node role made when create_iam_role is true. */
    public String nodeRole() {
        return "KarpenterNodeRole-" + config.clusterName();
    }

    public String instanceProfile() {
        return "KarpenterNodeInstanceProfile-" + config.clusterName();
    }

    /** Controller policy name for one part of the split policy, e.g. "KarpenterController-demo-NodeLifecycle". */
    public String controllerPolicy(String part) {
        return "KarpenterController-" + config.clusterName() + "-" + part;
    }

    public String queue() {
        return config.interruption().queueName();
    }

    /** EventBridge rule name: the cluster name and a short suffix, within 64 characters for any valid cluster. */
    public String eventRule(String suffix) {
        if (suffix.length() > EVENT_RULE_SUFFIX_MAX) {
            throw new IllegalArgumentException(
                    "event rule suffix longer than " + EVENT_RULE_SUFFIX_MAX + ": " + suffix);
        }
        return config.clusterName() + "-" + suffix;
    }

    /** CloudWatch alarm name: the cluster name and the alarm's, like the rules. */
    public String alarm(String alarmName) {
        return config.clusterName() + "-" + alarmName;
    }

    void requireWithinAwsLimits() {
        if (config.iam().useNamePrefix()) {
            requireLength(
                    "cluster_name",
                    controllerRolePrefix(),
                    IAM_NAME_PREFIX_MAX,
                    "IAM role name prefix",
                    "or set irsa_use_name_prefix = false");
        } else {
            requireLength("cluster_name", controllerRole(), IAM_ROLE_NAME_MAX, "IAM role name", "");
        }
        if (config.iam().createNodeRole()) {
            requireLength("cluster_name", nodeRole(), IAM_ROLE_NAME_MAX, "node IAM role name", "");
        }
        requireLength(
                "cluster_name",
                eventRule("x".repeat(EVENT_RULE_SUFFIX_MAX)),
                EVENT_RULE_NAME_MAX,
                "EventBridge rule name",
                "");
        for (String alarm : List.of(QUEUE_AGE_ALARM, RULE_FAILURES_ALARM)) {
            requireLength("cluster_name", alarm(alarm), ALARM_NAME_MAX, "CloudWatch alarm name", "");
        }
    }

    private void requireLength(String key, String name, int max, String what, String alternative) {
        if (name.length() > max) {
            int over = name.length() - max;
            throw new ConfigException(key + " \"" + config.clusterName() + "\" makes the " + what + " \"" + name + "\" "
                    + name.length() + " characters; AWS allows " + max + ": use a cluster name at most "
                    + (config.clusterName().length() - over) + " characters long"
                    + (alternative.isEmpty() ? "" : " " + alternative));
        }
    }
}
