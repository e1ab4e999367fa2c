package dev.platform.karpenter.adopt;

import static dev.platform.karpenter.config.Adoption.INSTANCE_PROFILE;
import static dev.platform.karpenter.config.Adoption.NODE_ROLE;
import static dev.platform.karpenter.config.Adoption.QUEUE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.InterruptionEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps upstream's getting-started CloudFormation stack (v0.30 to the newest 1.x: the templates share these logical ids) onto
 * the stacks, from {@code aws cloudformation describe-stack-resources --stack-name NAME} output. The template names
 * the node role KarpenterNodeRole-CLUSTER and the queue CLUSTER, so the cluster follows from them; the controller
 * role is not the template's (eksctl or the user made it).
 */
final class CloudFormationAdopter {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The template's rule logical ids and the event each forwards. */
    private static final Map<String, String> RULES = Map.of(
            "ScheduledChangeRule",
            InterruptionEvents.HEALTH.ruleSuffix(),
            "SpotInterruptionRule",
            InterruptionEvents.SPOT_INTERRUPTION.ruleSuffix(),
            "RebalanceRule",
            InterruptionEvents.REBALANCE.ruleSuffix(),
            "InstanceStateChangeRule",
            InterruptionEvents.STATE_CHANGE.ruleSuffix(),
            "CapacityReservationInterruptionRule",
            InterruptionEvents.CAPACITY_RESERVATION_INTERRUPTION.ruleSuffix());

    private static final String NODE_ROLE_PREFIX = "KarpenterNodeRole-";

    private CloudFormationAdopter() {}

    /** @param helmCliReleases the karpenter releases the Helm CLI installed beside the stack (--helm-release) */
    static Findings adopt(Path file, Optional<String> cluster, List<String> helmCliReleases) {
        String fileName = file.getFileName().toString();
        JsonNode resources;
        try {
            resources = JSON.readTree(Files.readString(file)).path("StackResources");
        } catch (IOException e) {
            throw new ConfigException(fileName + ": cannot read describe-stack-resources output: " + e.getMessage());
        }
        if (!resources.isArray() || resources.isEmpty()) {
            throw new ConfigException(fileName + ": no StackResources: give the output of aws cloudformation"
                    + " describe-stack-resources --stack-name NAME");
        }
        Map<String, String> byLogicalId = new java.util.LinkedHashMap<>();
        String stackName = resources.get(0).path("StackName").asText();
        for (JsonNode resource : resources) {
            byLogicalId.put(
                    resource.path("LogicalResourceId").asText(),
                    resource.path("PhysicalResourceId").asText());
        }
        String nodeRole = byLogicalId.get("KarpenterNodeRole");
        String queueUrl = byLogicalId.get("KarpenterInterruptionQueue");
        if (nodeRole == null && queueUrl == null) {
            throw new ConfigException(fileName + ": stack " + stackName + " is not Karpenter's getting-started"
                    + " stack: it has neither KarpenterNodeRole nor KarpenterInterruptionQueue");
        }
        String name;
        if (cluster.isPresent()) {
            name = cluster.get();
        } else if (nodeRole != null && nodeRole.startsWith(NODE_ROLE_PREFIX)) {
            name = nodeRole.substring(NODE_ROLE_PREFIX.length());
        } else if (queueUrl != null) {
            name = queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
        } else {
            throw new ConfigException(fileName + ": stack " + stackName + " names its node role " + nodeRole
                    + ", not KarpenterNodeRole-CLUSTER, and has no queue, so its cluster is unknown: name it with"
                    + " --cluster NAME");
        }
        Findings findings = new Findings(name, fileName);
        findings.found.add("CloudFormation stack " + stackName + ": Karpenter's getting-started template, "
                + byLogicalId.size() + " resources");
        byLogicalId.forEach((logicalId, physicalId) -> {
            if (logicalId.equals("KarpenterNodeRole")) {
                findings.adopt.put(NODE_ROLE, physicalId);
                findings.settings.put("create_iam_role", "true");
                findings.checks.add("create_iam_role = true gives the adopted node role an EKS access entry: the"
                        + " cluster's authentication mode must be API or API_AND_CONFIG_MAP");
            } else if (logicalId.equals("KarpenterNodeInstanceProfile")) {
                findings.adopt.put(INSTANCE_PROFILE, physicalId);
            } else if (logicalId.equals("KarpenterInterruptionQueue")) {
                findings.adopt.put(QUEUE, physicalId);
                findings.settings.put(
                        "queue_name",
                        ConfigException.quoteWhole(physicalId.substring(physicalId.lastIndexOf('/') + 1)));
            } else if (RULES.containsKey(logicalId)) {
                findings.eventRules.put(RULES.get(logicalId), physicalId);
            } else if (logicalId.equals("KarpenterInterruptionQueuePolicy")) {
                // Imported with the queue.
                return;
            } else {
                findings.notMapped.add(logicalId + " (" + physicalId + "): the project's controller policies are its"
                        + " own; it is retained and deleted by a step");
                if (physicalId.startsWith("arn:")) {
                    findings.oldPolicyArns.add(physicalId);
                }
            }
        });
        findings.cloudFormationStack = stackName;
        findings.helmCliReleases(helmCliReleases);
        return findings;
    }
}
