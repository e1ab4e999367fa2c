package dev.platform.karpenter.aws;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An IAM policy document as typed values, rendered by Jackson to the JSON IAM reads (the policy grammar's
 * Version, Id, Statement, Sid, Effect, Principal, Action, Resource and Condition).
 *
 * <p>Values may be Terraform references (cdktf tokens such as the partition or a queue ARN): they stay inside the
 * JSON strings and Terraform interpolates them at plan time, so the document is complete in the plan. This replaces
 * aws_iam_policy_document data sources (eight per cluster, their nested statement blocks crossing the jsii bridge
 * as structs, one more data source for every plan to read); IAM and the AWS provider compare policies by meaning,
 * and the rendering is deterministic, so plans stay free of re-ordering diffs either way.
 *
 * @param id the policy's optional Id element
 */
public record IamPolicyDocument(Optional<String> id, List<Statement> statements) {
    /** The current (and only useful) version of the policy language. */
    public static final String VERSION = "2012-10-17";

    public IamPolicyDocument {
        Objects.requireNonNull(id, "id");
        statements = List.copyOf(statements);
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("a policy document needs at least one statement");
        }
    }

    public static IamPolicyDocument of(Statement... statements) {
        return new IamPolicyDocument(Optional.empty(), List.of(statements));
    }

    public static IamPolicyDocument of(List<Statement> statements) {
        return new IamPolicyDocument(Optional.empty(), statements);
    }

    public IamPolicyDocument withId(String policyId) {
        return new IamPolicyDocument(Optional.of(policyId), statements);
    }

    public enum Effect { Allow, Deny }

    /**
     * One statement; an absent principal means an identity policy (the principal is whoever holds it).
     *
     * @param sid empty for none
     */
    public record Statement(String sid, Effect effect, Optional<Principal> principal, List<String> actions,
                            List<String> resources, List<Condition> conditions) {
        public Statement {
            Objects.requireNonNull(sid, "sid");
            Objects.requireNonNull(effect, "effect");
            Objects.requireNonNull(principal, "principal");
            actions = List.copyOf(actions);
            resources = List.copyOf(resources);
            conditions = List.copyOf(conditions);
            if (actions.isEmpty()) {
                throw new IllegalArgumentException("statement " + sid + " has no action");
            }
            long operatorKeys = conditions.stream().map(c -> c.test() + " " + c.variable()).distinct().count();
            if (operatorKeys != conditions.size()) {
                throw new IllegalArgumentException("statement " + sid + " repeats a condition operator and key");
            }
        }

        /** An identity-policy statement: no principal. */
        public static Statement of(String sid, Effect effect, List<String> actions, List<String> resources,
                                   List<Condition> conditions) {
            return new Statement(sid, effect, Optional.empty(), actions, resources, conditions);
        }

        public Statement withPrincipal(Principal newPrincipal) {
            return new Statement(sid, effect, Optional.of(newPrincipal), actions, resources, conditions);
        }
    }

    /**
     * Who a resource or trust policy applies to, e.g. {@code Service: [events.amazonaws.com]}; type {@code *} with
     * identifier {@code *} is anyone.
     */
    public record Principal(String type, List<String> identifiers) {
        public Principal {
            Objects.requireNonNull(type, "type");
            identifiers = List.copyOf(identifiers);
        }

        public static Principal service(String... services) {
            return new Principal("Service", List.of(services));
        }

        public static Principal federated(String provider) {
            return new Principal("Federated", List.of(provider));
        }

        public static Principal anyone() {
            return new Principal("*", List.of("*"));
        }

        boolean isAnyone() {
            return type.equals("*") && identifiers.equals(List.of("*"));
        }
    }

    /** One condition key under one operator, e.g. {@code StringEquals aws:RequestedRegion = [us-west-2]}. */
    public record Condition(String test, String variable, List<String> values) {
        public Condition {
            Objects.requireNonNull(test, "test");
            Objects.requireNonNull(variable, "variable");
            values = List.copyOf(values);
        }
    }

    /** The document as compact JSON, statements and values in the order given. */
    public String toJson() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode document = nodes.objectNode().put("Version", VERSION);
        id.ifPresent(value -> document.put("Id", value));
        ArrayNode statementNodes = document.putArray("Statement");
        for (Statement statement : statements) {
            ObjectNode node = statementNodes.addObject();
            if (!statement.sid().isEmpty()) {
                node.put("Sid", statement.sid());
            }
            node.put("Effect", statement.effect().name());
            statement.principal().ifPresent(principal -> {
                if (principal.isAnyone()) {
                    node.put("Principal", "*");
                } else {
                    principal.identifiers().forEach(node.putObject("Principal").putArray(principal.type())::add);
                }
            });
            statement.actions().forEach(node.putArray("Action")::add);
            if (!statement.resources().isEmpty()) {
                statement.resources().forEach(node.putArray("Resource")::add);
            }
            if (!statement.conditions().isEmpty()) {
                ObjectNode operators = node.putObject("Condition");
                for (Condition condition : statement.conditions()) {
                    ObjectNode keys = operators.has(condition.test())
                            ? (ObjectNode) operators.get(condition.test())
                            : operators.putObject(condition.test());
                    condition.values().forEach(keys.putArray(condition.variable())::add);
                }
            }
        }
        return document.toString();
    }
}
