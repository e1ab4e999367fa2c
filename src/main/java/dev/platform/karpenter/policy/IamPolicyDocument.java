package dev.platform.karpenter.policy;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An IAM policy document as typed records, the one model of every policy the app writes (the controller's
 * permissions, the roles' trust policies, the queue policy). Jackson renders it to the JSON IAM reads (the policy
 * grammar's Version, Id, Statement, Sid, Effect, Principal, Action, Resource and Condition).
 *
 * <p>Values may be Terraform references (cdktf tokens such as the partition or a queue ARN): they stay inside the
 * JSON strings and Terraform interpolates them at plan time, so the document is complete in the plan. This replaces
 * aws_iam_policy_document data sources (eight per cluster, their nested statement blocks crossing the jsii bridge
 * as structs, one more data source for every plan to read); IAM and the AWS provider compare policies by meaning,
 * and the rendering is deterministic, so plans stay free of re-ordering diffs either way.
 *
 * @param id the policy's optional Id element
 */
@JsonPropertyOrder({"Version", "Id", "Statement"})
public record IamPolicyDocument(@JsonIgnore Optional<String> id,
                                @JsonProperty("Statement") List<Statement> statements) {
    /** The current (and only useful) version of the policy language. */
    public static final String VERSION = "2012-10-17";
    private static final ObjectMapper JSON = new ObjectMapper();

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

    @JsonProperty("Version")
    String version() {
        return VERSION;
    }

    @JsonProperty("Id")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    String renderedId() {
        return id.orElse(null);
    }

    /** The document as compact JSON, statements and values in the order given. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public enum Effect { Allow, Deny }

    /**
     * One statement; an absent principal means an identity policy (the principal is whoever holds it).
     *
     * @param sid empty for none
     */
    @JsonPropertyOrder({"Sid", "Effect", "Principal", "Action", "Resource", "Condition"})
    public record Statement(@JsonProperty("Sid") @JsonInclude(JsonInclude.Include.NON_EMPTY) String sid,
                            @JsonProperty("Effect") Effect effect,
                            @JsonIgnore Optional<Principal> principal,
                            @JsonProperty("Action") List<String> actions,
                            @JsonProperty("Resource") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> resources,
                            @JsonIgnore List<Condition> conditions) {
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

        /** An identity-policy Allow statement, as upstream's controller policies write them. */
        public static Statement allow(String sid, List<String> actions, List<String> resources,
                                      Condition... conditions) {
            return of(sid, Effect.Allow, actions, resources, List.of(conditions));
        }

        public Statement withPrincipal(Principal newPrincipal) {
            return new Statement(sid, effect, Optional.of(newPrincipal), actions, resources, conditions);
        }

        @JsonProperty("Principal")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Principal renderedPrincipal() {
            return principal.orElse(null);
        }

        /** IAM's Condition block: operator to condition key to values, in the order given. */
        @JsonProperty("Condition")
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, Map<String, List<String>>> renderedConditions() {
            Map<String, Map<String, List<String>>> operators = new LinkedHashMap<>();
            for (Condition condition : conditions) {
                operators.computeIfAbsent(condition.test(), test -> new LinkedHashMap<>())
                        .put(condition.variable(), condition.values());
            }
            return operators;
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
        @JsonValue
        Object rendered() {
            boolean anyone = type.equals("*") && identifiers.equals(List.of("*"));
            return anyone ? "*" : Map.of(type, identifiers);
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
