package dev.platform.karpenter.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.policy.IamPolicyDocument.Condition;
import dev.platform.karpenter.policy.IamPolicyDocument.Effect;
import dev.platform.karpenter.policy.IamPolicyDocument.Principal;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import dev.platform.karpenter.testing.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class IamPolicyDocumentTest {
    private static final ObjectMapper JSON = Json.mapper();

    @Test
    void rendersTheIamGrammarWithConditionsGroupedByOperator() throws Exception {
        IamPolicyDocument document = IamPolicyDocument.of(Statement.of(
                "Tagging",
                Effect.Allow,
                List.of("ec2:CreateTags"),
                List.of("arn:${data.aws_partition.p.partition}:ec2:*:*:instance/*"),
                List.of(
                        new Condition("StringEquals", "aws:RequestTag/team", List.of("a", "b")),
                        new Condition("StringLike", "aws:RequestTag/pool", List.of("*")),
                        new Condition("StringEquals", "ec2:CreateAction", List.of("RunInstances")))));

        assertThat(JSON.readTree(document.toJson())).isEqualTo(JSON.readTree("""
                {"Version": "2012-10-17", "Statement": [{
                  "Sid": "Tagging", "Effect": "Allow", "Action": ["ec2:CreateTags"],
                  "Resource": ["arn:${data.aws_partition.p.partition}:ec2:*:*:instance/*"],
                  "Condition": {
                    "StringEquals": {"aws:RequestTag/team": ["a", "b"], "ec2:CreateAction": ["RunInstances"]},
                    "StringLike": {"aws:RequestTag/pool": ["*"]}}}]}
                """));
        assertThat(document.toJson()).doesNotContain(" ").doesNotContain("\n");
    }

    @Test
    void rendersPrincipalsAnIdAndLeavesOutEmptySidResourceAndCondition() throws Exception {
        IamPolicyDocument document = IamPolicyDocument.of(
                        Statement.of("", Effect.Allow, List.of("sts:AssumeRole"), List.of(), List.of())
                                .withPrincipal(Principal.service("ec2.amazonaws.com")),
                        Statement.of("DenyHTTP", Effect.Deny, List.of("sqs:*"), List.of("q"), List.of())
                                .withPrincipal(Principal.anyone()))
                .withId("Queue");

        assertThat(JSON.readTree(document.toJson())).isEqualTo(JSON.readTree("""
                {"Version": "2012-10-17", "Id": "Queue", "Statement": [
                  {"Effect": "Allow", "Principal": {"Service": ["ec2.amazonaws.com"]}, "Action": ["sts:AssumeRole"]},
                  {"Sid": "DenyHTTP", "Effect": "Deny", "Principal": "*", "Action": ["sqs:*"], "Resource": ["q"]}]}
                """));
    }

    @Test
    void rejectsDocumentsIamWouldReject() {
        assertThatThrownBy(() -> IamPolicyDocument.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one statement");
        assertThatThrownBy(() -> Statement.of("Empty", Effect.Allow, List.of(), List.of("*"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Empty has no action");
        assertThatThrownBy(() -> Statement.of(
                        "Twice",
                        Effect.Allow,
                        List.of("s3:GetObject"),
                        List.of("*"),
                        List.of(
                                new Condition("StringEquals", "aws:PrincipalTag/team", List.of("a")),
                                new Condition("StringEquals", "aws:PrincipalTag/team", List.of("b")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Twice repeats a condition");
    }
}
