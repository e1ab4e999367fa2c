package dev.platform.karpenter.monitoring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ReleaseMetrics;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Prometheus alert rules for the controller and the pools of one Karpenter release, in that release's own metric
 * names ({@link ReleaseMetrics}). Each alert's runbook is a section of docs/guides/alerts.md named after it.
 */
public final class AlertRules {
    public static final String GROUP = "karpenter";
    /** Where the runbooks are, relative to the repository. */
    public static final String RUNBOOKS = "docs/guides/alerts.md";

    /** How long a pod may wait for capacity before it counts. */
    public static final String PENDING_FOR = "15m";
    /** How long drifted nodes may wait for replacement: a day of budgets that allow no disruption is normal. */
    public static final String DRIFTED_FOR = "6h";
    /** Share of a pool's limit that counts as near it. */
    public static final double NEAR_LIMIT = 0.9;
    /** Seconds an interruption message may wait in the queue (90th percentile); a spot warning gives 120. */
    public static final int INTERRUPTION_MESSAGE_SECONDS = 60;
    /** Cloud provider errors in 15 minutes that count: one InsufficientCapacity now and then is normal. */
    public static final int CLOUD_PROVIDER_ERRORS = 10;

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE));

    /** One alerting rule. */
    public record Alert(
            String name, String expr, String forDuration, String severity, String summary, String description) {
        /** The anchor of its runbook in {@link #RUNBOOKS}. */
        public String runbookAnchor() {
            return name.toLowerCase(Locale.ROOT);
        }
    }

    private AlertRules() {}

    /** The alerts of {@code release}. */
    public static List<Alert> of(KarpenterRelease release) {
        ReleaseMetrics m = ReleaseMetrics.of(release);
        List<Alert> alerts = new ArrayList<>();
        alerts.add(new Alert(
                "KarpenterMetricsAbsent",
                "absent(" + m.liveness() + ")",
                "10m",
                "critical",
                "Karpenter is not running or Prometheus does not scrape it",
                "No series of " + m.liveness() + " for 10 minutes: the controller is down, or its metrics"
                        + " endpoint is not scraped. Nothing launches nodes or handles interruptions, and every"
                        + " other Karpenter alert stays silent."));
        alerts.add(new Alert(
                "KarpenterPodsPendingForCapacity",
                // namespace stays: the runbook's kubectl describe pod needs it.
                "max by (namespace, name) (" + m.podState() + "{phase=\"Pending\", node=\"\"}) > 0",
                PENDING_FOR,
                "warning",
                "Pod {{ $labels.namespace }}/{{ $labels.name }} has waited " + PENDING_FOR + " for a node",
                "A pod has been Pending without a node for " + PENDING_FOR + ": no pool can launch a node for it"
                        + " (requirements no pool meets, limits reached, capacity errors) or launches fail."));
        alerts.add(new Alert(
                "KarpenterNodeClaimsNotRegistering",
                "sum(increase(" + m.claimsCreated() + "[30m])) > 0 unless sum(increase(" + m.nodesCreated()
                        + "[30m])) > 0",
                "15m",
                "critical",
                "Karpenter launches node claims but no node registers",
                "Karpenter created node claims in the last 30 minutes and none became a node: launches fail,"
                        + " or instances start but never join the cluster (node role, user data, AMI, network)."));
        alerts.add(new Alert(
                "KarpenterNodePoolNearLimit",
                // max by: a replica that lost the lead may still export the pool's last values.
                "max by (" + m.poolLabel() + ", resource_type) (" + m.poolUsage() + ") / max by (" + m.poolLabel()
                        + ", resource_type) (" + m.poolLimit() + ") > " + NEAR_LIMIT,
                "15m",
                "warning",
                "Pool {{ $labels." + m.poolLabel() + " }} has used {{ $value | humanizePercentage }} of its"
                        + " {{ $labels.resource_type }} limit",
                "A pool has launched more than " + Math.round(NEAR_LIMIT * 100) + "% of its limit for 15 minutes:"
                        + " soon it launches nothing more, and pods wait."));
        alerts.add(new Alert(
                "KarpenterCloudProviderErrors",
                // Not found is how every normal termination ends (Delete until the instance is gone): not a fault.
                "sum by (method, error) (increase(" + m.cloudProviderErrors() + "{error!=\"" + m.notFoundError()
                        + "\"}[15m])) > " + CLOUD_PROVIDER_ERRORS,
                "15m",
                "warning",
                "Cloud provider calls fail: {{ $labels.method }} {{ $labels.error }}",
                "More than " + CLOUD_PROVIDER_ERRORS + " errors from EC2 calls of one method in 15 minutes, for 15"
                        + " minutes (" + m.notFoundError() + ", which normal terminations produce, not counted):"
                        + " permissions, quotas, capacity, or the API is refusing requests."));
        alerts.add(new Alert(
                "KarpenterInterruptionMessagesDelayed",
                "histogram_quantile(0.9, sum by (le) (rate(" + m.interruptionMessageAge() + "_bucket[10m]))) > "
                        + INTERRUPTION_MESSAGE_SECONDS,
                "10m",
                "critical",
                "Interruption messages wait more than " + INTERRUPTION_MESSAGE_SECONDS
                        + " seconds before Karpenter acts",
                "The 90th percentile of the time interruption messages waited in the queue before the controller"
                        + " acted is above " + INTERRUPTION_MESSAGE_SECONDS + " seconds: a spot interruption warning"
                        + " gives two minutes, so nodes go before they are drained."));
        alerts.add(new Alert(
                "KarpenterDriftedNodesWaiting",
                "max(" + m.disruptionEligible() + "{" + m.driftSelector() + "}) > 0",
                DRIFTED_FOR,
                "warning",
                "Drifted nodes have waited " + DRIFTED_FOR + " for replacement",
                "Karpenter has counted drifted nodes (their pool or node class changed, or a new AMI came out) as"
                        + " eligible for replacement for " + DRIFTED_FOR + " and not replaced them: disruption"
                        + " budgets block them, or their replacements fail to launch. Nodes held by do-not-disrupt"
                        + " pods or PodDisruptionBudgets are not counted eligible (from 1.0, unless their claim has a"
                        + " terminationGracePeriod), so this alert does not see them."));
        return alerts;
    }

    /** The rule group as a Prometheus rules document ({@code groups:}). */
    public static ObjectNode rulesDocument(KarpenterRelease release) {
        ObjectNode document = YAML.createObjectNode();
        ArrayNode groups = document.putArray("groups");
        ObjectNode group = groups.addObject();
        group.put("name", GROUP);
        ArrayNode rules = group.putArray("rules");
        for (Alert alert : of(release)) {
            ObjectNode rule = rules.addObject();
            rule.put("alert", alert.name());
            rule.put("expr", alert.expr());
            rule.put("for", alert.forDuration());
            rule.putObject("labels").put("severity", alert.severity());
            ObjectNode annotations = rule.putObject("annotations");
            annotations.put("summary", alert.summary());
            annotations.put("description", alert.description());
            annotations.put("runbook", RUNBOOKS + "#" + alert.runbookAnchor());
        }
        return document;
    }

    /** The rules file for any Prometheus: {@code promtool check rules} takes it. */
    public static String rulesFile(KarpenterRelease release) {
        return "# Karpenter " + release.chartVersion() + " alert rules, in that release's metric names\n"
                + yaml(rulesDocument(release));
    }

    static String yaml(Object document) {
        try {
            return YAML.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
