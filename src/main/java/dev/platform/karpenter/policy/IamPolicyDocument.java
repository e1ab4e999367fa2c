package dev.platform.karpenter.policy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An IAM policy document as typed records, the one model of every policy the app writes (the controller's
 * permissions, the roles' trust policies, the queue policy), rendered as a Jackson tree to the JSON IAM reads (the
 * policy grammar's Version, Id, Statement, Sid, Effect, Principal, Action, Resource and Condition).
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

    /**
     * The document as compact JSON, statements and values in the order given. Built as a Jackson tree rather than
     * by data binding: introspecting the records costs a short-lived JVM more than the whole rendering.
     */
    public String toJson() {
        ObjectNode document = JsonNodeFactory.instance.objectNode().put("Version", VERSION);
        id.ifPresent(value -> document.put("Id", value));
        ArrayNode statementNodes = document.putArray("Statement");
        statements.forEach(statement -> statement.render(statementNodes.addObject()));
        return document.toString();
    }

    public enum Effect {
        Allow,
        Deny
    }

    /**
     * One statement; an absent principal means an identity policy (the principal is whoever holds it).
     *
     * @param sid empty for none
     */
    public record Statement(
            String sid,
            Effect effect,
            Optional<Principal> principal,
            List<String> actions,
            List<String> resources,
            List<Condition> conditions) {
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
            long operatorKeys = conditions.stream()
                    .map(c -> c.test() + " " + c.variable())
                    .distinct()
                    .count();
            if (operatorKeys != conditions.size()) {
                throw new IllegalArgumentException("statement " + sid + " repeats a condition operator and key");
            }
        }

        /** An identity-policy statement: no principal. */
        public static Statement of(
                String sid, Effect effect, List<String> actions, List<String> resources, List<Condition> conditions) {
            return new Statement(sid, effect, Optional.empty(), actions, resources, conditions);
        }

        /** An identity-policy Allow statement, as upstream's controller policies write them. */
        public static Statement allow(
                String sid, List<String> actions, List<String> resources, Condition... conditions) {
            return of(sid, Effect.Allow, actions, resources, List.of(conditions));
        }

        public Statement withPrincipal(Principal newPrincipal) {
            return new Statement(sid, effect, Optional.of(newPrincipal), actions, resources, conditions);
        }

        /** IAM's grammar: no Sid when empty, Resource and Condition only when present, conditions grouped by operator. */
        void render(ObjectNode node) {
            if (!sid.isEmpty()) {
                node.put("Sid", sid);
            }
            node.put("Effect", effect.name());
            principal.ifPresent(p -> p.render(node));
            actions.forEach(node.putArray("Action")::add);
            if (!resources.isEmpty()) {
                resources.forEach(node.putArray("Resource")::add);
            }
            if (!conditions.isEmpty()) {
                ObjectNode operators = node.putObject("Condition");
                for (Condition condition : conditions) {
                    ObjectNode keys = operators.has(condition.test())
                            ? (ObjectNode) operators.get(condition.test())
                            : operators.putObject(condition.test());
                    condition.values().forEach(keys.putArray(condition.variable())::add);
                }
            }
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

        /** IAM spells anyone as the string "*", every other principal as {type: [identifiers]}. */
        void render(ObjectNode statement) {
            if (type.equals("*") && identifiers.equals(List.of("*"))) {
                statement.put("Principal", "*");
            } else {
                identifiers.forEach(statement.putObject("Principal").putArray(type)::add);
            }
        }
    }

    /** One condition key under one operator, e.g. {@code StringEquals aws:RequestedRegion = [us-west-2]}. */
    public record Condition(String test, String variable, List<String> values) {
        public Condition {
            Objects.requireNonNull(test, "test");
            Objects.requireNonNull(variable, "variable");
            values = List.copyOf(values);
        }

        public static Condition stringEquals(String variable, String... values) {
            return new Condition("StringEquals", variable, List.of(values));
        }

        public static Condition stringLike(String variable, String... values) {
            return new Condition("StringLike", variable, List.of(values));
        }

        public static Condition stringEqualsIfExists(String variable, String... values) {
            return new Condition("StringEqualsIfExists", variable, List.of(values));
        }

        public static Condition forAllValuesStringEquals(String variable, String... values) {
            return new Condition("ForAllValues:StringEquals", variable, List.of(values));
        }

        public static Condition bool(String variable, String value) {
            return new Condition("Bool", variable, List.of(value));
        }
    }
}
