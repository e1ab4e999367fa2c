package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CRD validator rejects what the API server rejects, kind by kind, with the shipped CRDs of the newest release
 * and of 0.30 (the v1alpha5 generation), and accepts valid objects; each refusal names the field and reads as one
 * line.
 */
@KernelOnlyThroughSynthesized
class CrdSchemasTest {
    private static final CrdSchemas V1 =
            ReleaseSchemas.of(UpgradeSteps.newestRelease()).crds();
    private static final CrdSchemas V1ALPHA5 =
            ReleaseSchemas.of(KarpenterRelease.of("0.30.0")).crds();

    private static final String NODE_POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: default}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
                    - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"]}
              disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m}
            """;
    private static final String NODE_CLASS = """
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec:
              role: KarpenterNodeRole-demo
              amiSelectorTerms: [{alias: al2023@latest}]
              subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
              securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
            """;
    private static final String PROVISIONER = """
            apiVersion: karpenter.sh/v1alpha5
            kind: Provisioner
            metadata: {name: default}
            spec:
              requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
              limits: {resources: {cpu: 1000}}
              providerRef: {name: default}
            """;
    private static final String NODE_TEMPLATE = """
            apiVersion: karpenter.k8s.aws/v1alpha1
            kind: AWSNodeTemplate
            metadata: {name: default}
            spec:
              amiFamily: Bottlerocket
              subnetSelector: {karpenter.sh/discovery: demo}
              securityGroupSelector: {karpenter.sh/discovery: demo}
            """;

    @Test
    void servesTheKindsOfItsReleaseOnly() {
        // NodeOverlay from 1.7 on (node_overlays).
        assertThat(V1.servedKinds())
                .containsExactly(
                        "karpenter.k8s.aws/v1 EC2NodeClass",
                        "karpenter.sh/v1 NodePool",
                        "karpenter.sh/v1alpha1 NodeOverlay");
        assertThat(V1ALPHA5.servedKinds())
                .containsExactly("karpenter.k8s.aws/v1alpha1 AWSNodeTemplate", "karpenter.sh/v1alpha5 Provisioner");
        ObjectNode beta = (ObjectNode) yaml(NODE_POOL);
        beta.put("apiVersion", "karpenter.sh/v1beta1");
        assertThat(V1.validate(beta))
                .containsExactly(new Violation(
                        "",
                        "no matches for kind \"NodePool\" in version \"karpenter.sh/v1beta1\" (served:"
                                + " karpenter.k8s.aws/v1 EC2NodeClass, karpenter.sh/v1 NodePool,"
                                + " karpenter.sh/v1alpha1 NodeOverlay)"));
    }

    @Test
    void acceptsValidObjectsOfEachKind() {
        assertThat(V1.validate(yaml(NODE_POOL))).isEmpty();
        assertThat(V1.validate(yaml(NODE_CLASS))).isEmpty();
        assertThat(V1ALPHA5.validate(yaml(PROVISIONER))).isEmpty();
        assertThat(V1ALPHA5.validate(yaml(NODE_TEMPLATE))).isEmpty();
    }

    @Test
    void nodePool() {
        assertRefused(
                V1,
                NODE_POOL,
                "/spec/template/spec/requirements/0",
                "operator",
                "Like",
                new Violation(
                        "spec.template.spec.requirements[0].operator",
                        "\"Like\" is not one of \"Gte\", \"Lte\", \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""));
        // Schema: a field the structural schema does not have, with the nearest one named.
        assertRefused(
                V1,
                NODE_POOL,
                "/spec/disruption",
                "consolidationPolicies",
                "WhenEmpty",
                new Violation(
                        "spec.disruption.consolidationPolicies",
                        "unknown field (did you mean \"consolidationPolicy\"?); allowed: budgets, consolidateAfter,"
                                + " consolidationPolicy"));
        // Schema: a pattern, the value and the pattern in one line.
        ObjectNode budget = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) budget.path("spec").path("disruption"))
                .putArray("budgets")
                .addObject()
                .put("nodes", "150%");
        assertThat(V1.validate(budget))
                .containsExactly(new Violation(
                        "spec.disruption.budgets[0].nodes", "\"150%\" does not match ^((100|[0-9]{1,2})%|[0-9]+)$"));
        // CEL on a property: a label in Karpenter's own domain that it does not define.
        assertRefused(
                V1,
                NODE_POOL,
                "/spec/template/spec/requirements/0",
                "key",
                "karpenter.sh/custom",
                new Violation(
                        "spec.template.spec.requirements[0].key",
                        "label domain \"karpenter.sh\" is restricted (got \"karpenter.sh/custom\")"));
        // CEL on a list (the rule is the list's, so is the path): In with no values.
        ObjectNode empty = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) empty.at("/spec/template/spec/requirements/0")).putArray("values");
        assertThat(V1.validate(empty))
                .containsExactly(new Violation(
                        "spec.template.spec.requirements",
                        "requirements with operator 'In' must have a value defined"));
        // CEL that fails to evaluate: Gt with a value that is no integer.
        ObjectNode notANumber = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) notANumber.at("/spec/template/spec/requirements/1"))
                .putArray("values")
                .add("two");
        assertThat(V1.validate(notANumber))
                .containsExactly(new Violation(
                        "spec.template.spec.requirements",
                        "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value"));
    }

    @Test
    void ec2NodeClass() {
        // CEL on spec: exactly one of role and instanceProfile.
        assertRefused(
                V1,
                NODE_CLASS,
                "/spec",
                "instanceProfile",
                "KarpenterNodeInstanceProfile-demo",
                new Violation("spec", "must specify exactly one of ['role', 'instanceProfile']"));
        assertRefusedWithout(
                V1,
                NODE_CLASS,
                "/spec",
                "role",
                new Violation("spec", "must specify exactly one of ['role', 'instanceProfile']"));
        // Required: the server needs AMI selector terms (and so does the rule that reads them).
        assertRefusedWithout(
                V1,
                NODE_CLASS,
                "/spec",
                "amiSelectorTerms",
                new Violation("spec.amiSelectorTerms", "is required"),
                new Violation("spec", "must specify amiFamily if amiSelectorTerms does not contain an alias"));
        // CEL on an alias: a family Karpenter does not know.
        assertRefused(
                V1,
                NODE_CLASS,
                "/spec/amiSelectorTerms/0",
                "alias",
                "ubuntu@latest",
                new Violation(
                        "spec.amiSelectorTerms[0].alias",
                        "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket',"
                                + " 'windows2019', 'windows2022', 'windows2025' (got \"ubuntu@latest\")"));
        // A map key that is no plain name is quoted in brackets.
        ObjectNode tags = (ObjectNode) yaml(NODE_CLASS);
        ((ObjectNode) tags.path("spec")).putObject("tags").put("kubernetes.io/cluster/demo", "owned");
        assertThat(V1.validate(tags)).extracting(Violation::path).containsExactly("spec.tags");
    }

    @Test
    void provisioner() {
        assertRefusedWithout(
                V1ALPHA5,
                PROVISIONER,
                "/spec/providerRef",
                "name",
                new Violation("spec.providerRef.name", "is required"));
        assertRefused(
                V1ALPHA5,
                PROVISIONER,
                "/spec",
                "ttlSecondsUntilExpired",
                "720h",
                new Violation("spec.ttlSecondsUntilExpired", "\"720h\" is a string; expected an integer"));
        assertRefused(
                V1ALPHA5,
                PROVISIONER,
                "/spec",
                "consolidaton",
                "x",
                new Violation(
                        "spec.consolidaton",
                        "unknown field (did you mean \"consolidation\"?); allowed: annotations, consolidation, kubeletConfiguration,"
                                + " labels, limits, provider, providerRef, requirements, startupTaints, taints,"
                                + " ttlSecondsAfterEmpty, ttlSecondsUntilExpired, weight"));
    }

    @Test
    void awsNodeTemplate() {
        ObjectNode wrongType = (ObjectNode) yaml(NODE_TEMPLATE);
        ((ObjectNode) wrongType.path("spec")).put("amiFamily", 3);
        assertThat(V1ALPHA5.validate(wrongType))
                .containsExactly(new Violation("spec.amiFamily", "3 is an integer; expected a string"));
        ObjectNode wrongNested = (ObjectNode) yaml(NODE_TEMPLATE);
        ((ObjectNode) wrongNested.path("spec"))
                .putArray("blockDeviceMappings")
                .addObject()
                .put("deviceName", "/dev/xvda")
                .putObject("ebs")
                .put("volumeSize", "4Gi")
                .put("throughputs", 125);
        assertThat(V1ALPHA5.validate(wrongNested))
                .extracting(Violation::path)
                .containsExactly("spec.blockDeviceMappings[0].ebs.throughputs");
    }

    @Test
    void appliesSchemaDefaultsBeforeValidatingAndSkipsTransitionRulesOnCreate() {
        ObjectNode pool = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) pool.path("spec")).remove("disruption");
        ObjectNode defaulted = V1.withDefaults("karpenter.sh/v1", "NodePool", pool);
        assertThat(defaulted.at("/spec/disruption/consolidateAfter").isTextual())
                .isTrue();
        assertThat(defaulted.at("/spec/disruption/budgets/0/nodes").asText()).isEqualTo("10%");
        assertThat(pool.has("disruption"))
                .as("the caller's object is left alone")
                .isFalse();
        // NodePool carries a transition rule (replicas may not be added or removed later): not run on create, where
        // oldSelf does not exist.
        assertThat(V1.schema("karpenter.sh/v1", "NodePool").toString()).contains("oldSelf");
        assertThat(V1.validate(yaml(NODE_POOL))).isEmpty();
    }

    @Test
    void aFailedRuleReportsItsMessageExpressionElseItsMessage() {
        CrdSchemas widgets = CrdSchemas.of(HelmRender.parse("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  names: {kind: Widget, plural: widgets}
                  scope: Cluster
                  versions:
                    - name: v1
                      served: true
                      storage: true
                      schema:
                        openAPIV3Schema:
                          type: object
                          properties:
                            apiVersion: {type: string}
                            kind: {type: string}
                            metadata: {type: object}
                            spec:
                              type: object
                              properties:
                                size: {type: integer}
                                name: {type: string}
                                ports: {type: array, items: {type: integer}, x-kubernetes-list-type: set}
                                quantity: {anyOf: [{type: integer}, {type: string}], x-kubernetes-int-or-string: true}
                              x-kubernetes-validations:
                                - rule: self.size < 10
                                  messageExpression: "'size ' + string(self.size) + ' is over 9'"
                                  message: too big
                                - rule: self.name != 'x'
                                  message: name may not be x
                """));
        JsonNode widget = yaml(
                "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 12, name: x, quantity: 2}}");
        assertThat(widgets.validate(widget))
                .containsExactly(
                        new Violation("spec", "size 12 is over 9"), new Violation("spec", "name may not be x"));
        JsonNode listAndQuantity = yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w},"
                + " spec: {size: 1, name: y, ports: [80, 80], quantity: true}}");
        assertThat(widgets.validate(listAndQuantity))
                .containsExactly(
                        new Violation("spec.ports", "[80,80] holds the same item twice"),
                        new Violation("spec.quantity", "true is a boolean; expected an integer or a string"));
    }

    @Test
    void pathsReadAsUsersWriteFieldsWithKeysThatAreNoPlainNamesInBrackets() {
        assertThat(CrdSchemas.path(List.of("spec", "template", "metadata", "labels", "example.com/team")))
                .isEqualTo("spec.template.metadata.labels[\"example.com/team\"]");
        assertThat(CrdSchemas.path(List.of("spec", "disruption", "budgets", 0, "nodes")))
                .isEqualTo("spec.disruption.budgets[0].nodes");
    }

    @Test
    void aSpecIsValidatedAsTheSpecOfANamedObjectWithPathsRelativeToIt() {
        ReleaseSchemas newest = ReleaseSchemas.of(UpgradeSteps.newestRelease());
        JsonNode spec = yaml(NODE_POOL).path("spec").deepCopy();
        ((ObjectNode) spec.path("disruption")).put("consolidateAfter", "soon");
        assertThat(newest.validateSpec("karpenter.sh/v1", "NodePool", "default", spec))
                .extracting(Violation::path)
                .containsExactly("disruption.consolidateAfter");
    }

    /** The valid object with {@code field} at {@code pointer} set to {@code value} is refused with {@code expected}. */
    private static void assertRefused(
            CrdSchemas validator, String valid, String pointer, String field, String value, Violation expected) {
        ObjectNode bad = (ObjectNode) yaml(valid);
        ((ObjectNode) bad.at(pointer)).put(field, value);
        assertThat(validator.validate(bad))
                .as(pointer + "/" + field + " = " + value)
                .containsExactly(expected);
    }

    /** The valid object without {@code field} at {@code pointer} is refused with exactly {@code expected}. */
    private static void assertRefusedWithout(
            CrdSchemas validator, String valid, String pointer, String field, Violation... expected) {
        ObjectNode bad = (ObjectNode) yaml(valid);
        ((ObjectNode) bad.at(pointer)).remove(field);
        assertThat(validator.validate(bad))
                .as("without " + pointer + "/" + field)
                .containsExactly(expected);
    }

    static JsonNode yaml(String text) {
        return HelmRender.parse(text).get(0);
    }
}
