package dev.platform.karpenter.adopt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whom an adopted controller role trusts, read from its {@code assume_role_policy}: the project rewrites that trust
 * for one identity and one service account, so adoption must name the ones the running controller uses, or its
 * credentials stop working at the first apply.
 *
 * @param podIdentity     a statement lets {@code pods.eks.amazonaws.com} assume the role (EKS Pod Identity)
 * @param irsa            a statement allows {@code sts:AssumeRoleWithWebIdentity} (IRSA)
 * @param serviceAccounts the {@code namespace:name} of each service account the IRSA statements name in their
 *                        {@code :sub} conditions, in order
 */
record ControllerTrust(boolean podIdentity, boolean irsa, List<String> serviceAccounts) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD_IDENTITY_PRINCIPAL = "pods.eks.amazonaws.com";
    private static final String SERVICE_ACCOUNT_SUBJECT = "system:serviceaccount:";

    /** The trust of a policy document; empty (neither identity) when it is missing or no JSON. */
    static ControllerTrust of(String assumeRolePolicy) {
        JsonNode document;
        try {
            document = assumeRolePolicy.isBlank() ? null : JSON.readTree(assumeRolePolicy);
        } catch (IOException e) {
            document = null;
        }
        boolean podIdentity = false;
        boolean irsa = false;
        List<String> serviceAccounts = new ArrayList<>();
        for (JsonNode statement : list(document == null ? null : document.path("Statement"))) {
            if (!statement.path("Effect").asText("Allow").equals("Allow")) {
                continue;
            }
            if (texts(statement.path("Principal").path("Service")).contains(POD_IDENTITY_PRINCIPAL)) {
                podIdentity = true;
            }
            if (texts(statement.path("Action")).contains("sts:AssumeRoleWithWebIdentity")) {
                irsa = true;
                statement
                        .path("Condition")
                        .forEach(test -> test.fields().forEachRemaining(condition -> {
                            if (condition.getKey().endsWith(":sub")) {
                                for (String subject : texts(condition.getValue())) {
                                    if (subject.startsWith(SERVICE_ACCOUNT_SUBJECT)
                                            && !serviceAccounts.contains(
                                                    subject.substring(SERVICE_ACCOUNT_SUBJECT.length()))) {
                                        serviceAccounts.add(subject.substring(SERVICE_ACCOUNT_SUBJECT.length()));
                                    }
                                }
                            }
                        }));
            }
        }
        return new ControllerTrust(podIdentity, irsa, List.copyOf(serviceAccounts));
    }

    /** A JSON policy element that may be one value or a list of them. */
    private static List<JsonNode> list(JsonNode node) {
        List<JsonNode> values = new ArrayList<>();
        if (node == null || node.isMissingNode() || node.isNull()) {
            return values;
        }
        if (node.isArray()) {
            node.forEach(values::add);
        } else {
            values.add(node);
        }
        return values;
    }

    private static List<String> texts(JsonNode node) {
        return list(node).stream()
                .filter(JsonNode::isTextual)
                .map(JsonNode::asText)
                .toList();
    }
}
