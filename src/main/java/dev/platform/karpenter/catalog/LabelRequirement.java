package dev.platform.karpenter.catalog;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * One node selector requirement of a pool, as Karpenter reads it: a label key, an operator (In, NotIn, Exists,
 * DoesNotExist, Gt, Lt, and in newer releases Gte, Lte), its values and an optional minValues.
 *
 * @param where its place in the pool's object, for messages: "spec.template.spec.requirements[4]"
 */
public record LabelRequirement(
        String key, String operator, List<String> values, Optional<Integer> minValues, String where) {

    public LabelRequirement {
        values = List.copyOf(values);
    }

    /**
     * Whether a node whose label {@code key} has {@code value} (null: the node does not carry it) satisfies this,
     * with Kubernetes' node affinity semantics: NotIn and DoesNotExist hold on a node without the label, Gt, Gte, Lt
     * and Lte compare integers and fail on anything else.
     */
    public boolean admits(String value) {
        return switch (operator) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt" -> compare(value) > 0;
            case "Gte" -> compare(value) >= 0;
            case "Lt" -> compare(value) < 0 && compare(value) != Integer.MIN_VALUE;
            case "Lte" -> compare(value) <= 0 && compare(value) != Integer.MIN_VALUE;
            default -> false;
        };
    }

    /** Sign of value - values[0] as integers; Integer.MIN_VALUE where either is not an integer. */
    private int compare(String value) {
        if (value == null || values.size() != 1) {
            return Integer.MIN_VALUE;
        }
        try {
            return Integer.signum(new BigInteger(value).compareTo(new BigInteger(values.get(0))));
        } catch (NumberFormatException e) {
            return Integer.MIN_VALUE;
        }
    }

    /** As written in the pool: "karpenter.k8s.aws/instance-generation Gt [2]". */
    public String describe() {
        String text = key + " " + operator + (values.isEmpty() ? "" : " " + values);
        return minValues.map(min -> text + " minValues " + min).orElse(text);
    }
}
