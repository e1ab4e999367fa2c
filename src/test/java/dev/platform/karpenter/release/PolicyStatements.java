package dev.platform.karpenter.release;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.policy.ControllerPolicy;
import dev.platform.karpenter.testing.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Policy statements in one comparable shape, whatever they were written in: the upstream CloudFormation JSON (the
 * expected values, kept in {@code controller-policy-<version>.json} next to this class), or a policy document as the
 * app renders it or as AWS returns it.
 * Order never matters in IAM, so actions, resources and condition values are sets.
 */
public final class PolicyStatements {
    private static final Comparator<Normalized> BY_SID =
            Comparator.comparing(Normalized::sid).thenComparing(Normalized::toString);

    private PolicyStatements() {}

    /** One statement: Sid, effect, actions, resources and conditions (operator to key to values). */
    public record Normalized(
            String sid,
            String effect,
            SortedSet<String> actions,
            SortedSet<String> resources,
            SortedMap<String, SortedMap<String, SortedSet<String>>> conditions) {}

    /**
     * The upstream statements of a template version, grouped by policy, with the template's parameters replaced by
     * the values of {@code scope}.
     *
     * @param templateVersion a PolicyGeneration template, e.g. "v0.30.0": which controller-policy-*.json to read
     */
    public static Map<String, Set<Normalized>> upstream(String templateVersion, ControllerPolicy.Scope scope) {
        String text = readResource("controller-policy-" + templateVersion + ".json");
        // The cluster ARN first: upstream spells it out, this project reads it from the cluster.
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put(
                "arn:${AWS::Partition}:eks:${AWS::Region}:${AWS::AccountId}:cluster/${ClusterName}",
                scope.clusterArn());
        parameters.put("${KarpenterInterruptionQueue.Arn}", scope.queueArn());
        parameters.put("${KarpenterNodeRole.Arn}", scope.nodeRoleArn());
        parameters.put("${AWS::Partition}", scope.partition());
        parameters.put("${AWS::Region}", scope.region());
        parameters.put("${AWS::AccountId}", scope.accountId());
        parameters.put("${ClusterName}", scope.clusterName());
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            text = text.replace(parameter.getKey(), parameter.getValue());
        }
        // The one deliberate difference: upstream names ec2.amazonaws.com (and on 1.x also ec2.amazonaws.com.cn) as
        // the service the node role is passed to; the app names the EC2 principal of the cluster's partition (and in
        // China the global one too).
        text = text.replaceAll(
                "\"iam:PassedToService\":\\s*(\\[[^\\]]*\\]|\"[^\"]*\")",
                "\"iam:PassedToService\": "
                        + Json.tree(ControllerPolicy.passedToServices(scope.ec2Principal()))
                                .toString());
        Map<String, Set<Normalized>> groups = new LinkedHashMap<>();
        Json.parse(text).fields().forEachRemaining(group -> groups.put(group.getKey(), fromIamJson(group.getValue())));
        return groups;
    }

    /** Statements as IAM writes them: Action/Resource a string or a list, Condition an object of objects. */
    public static Set<Normalized> fromIamJson(JsonNode statements) {
        Set<Normalized> result = new TreeSet<>(BY_SID);
        for (JsonNode statement : asArray(statements)) {
            SortedMap<String, SortedMap<String, SortedSet<String>>> conditions = new TreeMap<>();
            statement.path("Condition").fields().forEachRemaining(operator -> {
                SortedMap<String, SortedSet<String>> keys = new TreeMap<>();
                operator.getValue().fields().forEachRemaining(key -> keys.put(key.getKey(), texts(key.getValue())));
                conditions.put(operator.getKey(), keys);
            });
            result.add(new Normalized(
                    statement.path("Sid").asText(),
                    statement.path("Effect").asText(),
                    texts(statement.path("Action")),
                    texts(statement.path("Resource")),
                    conditions));
        }
        return result;
    }

    /** The statements of a policy document's JSON, as the app renders it or AWS returns it. */
    public static Set<Normalized> fromDocument(String policyJson) {
        return fromIamJson(Json.parse(policyJson).path("Statement"));
    }

    private static SortedSet<String> texts(JsonNode stringOrArray) {
        return new TreeSet<>(Json.texts(stringOrArray));
    }

    private static Iterable<JsonNode> asArray(JsonNode node) {
        if (node.isMissingNode()) {
            return List.of();
        }
        return node.isArray() ? node : List.of(node);
    }

    private static String readResource(String name) {
        try (InputStream in = PolicyStatements.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
