package dev.platform.karpenter.testing.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CRD validator rejects what the API server rejects, kind by kind, with the real CRDs of Karpenter 1.14.1 and
 * 0.30.0 (rendered from their karpenter-crd charts), and accepts valid objects.
 */
class CrdValidatorTest {
    private static final CrdValidator V1 = UpstreamCharts.crdValidator("v1.14.1");
    private static final CrdValidator V1ALPHA5 = UpstreamCharts.crdValidator("v0.30.0");

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
        assertThat(V1.servedKinds())
                .contains("karpenter.sh/v1 NodePool", "karpenter.k8s.aws/v1 EC2NodeClass")
                .noneMatch(k -> k.startsWith("karpenter") && (k.contains("v1beta1") || k.contains("v1alpha5")));
        assertThat(V1ALPHA5.servedKinds())
                .contains("karpenter.sh/v1alpha5 Provisioner", "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate");
        ObjectNode beta = (ObjectNode) yaml(NODE_POOL);
        beta.put("apiVersion", "karpenter.sh/v1beta1");
        assertThat(V1.errors(beta))
                .singleElement()
                .asString()
                .startsWith("no matches for kind \"NodePool\" in version \"karpenter.sh/v1beta1\"");
    }

    @Test
    void acceptsValidObjectsOfEachKind() {
        assertThat(V1.errors(yaml(NODE_POOL))).isEmpty();
        assertThat(V1.errors(yaml(NODE_CLASS))).isEmpty();
        assertThat(V1ALPHA5.errors(yaml(PROVISIONER))).isEmpty();
        assertThat(V1ALPHA5.errors(yaml(NODE_TEMPLATE))).isEmpty();
    }

    @Test
    void nodePool() {
        assertRejected(V1, NODE_POOL, "/spec/template/spec/requirements/0", "operator", "Like", "operator");
        // Schema: a field the structural schema does not have.
        assertRejected(
                V1, NODE_POOL, "/spec/disruption", "consolidationPolicies", "WhenEmpty", "consolidationPolicies");
        // CEL on a property: a label in Karpenter's own domain that it does not define.
        assertRejected(
                V1,
                NODE_POOL,
                "/spec/template/spec/requirements/0",
                "key",
                "karpenter.sh/custom",
                "label domain \"karpenter.sh\" is restricted");
        // CEL on a list: In with no values.
        ObjectNode empty = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) empty.at("/spec/template/spec/requirements/0")).putArray("values");
        assertThat(V1.errors(empty))
                .anySatisfy(e -> assertThat(e).contains("requirements with operator 'In' must have a value defined"));
        // CEL that fails to evaluate: Gt with a value that is no integer.
        ObjectNode notANumber = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) notANumber.at("/spec/template/spec/requirements/1"))
                .putArray("values")
                .add("two");
        assertThat(V1.errors(notANumber)).anySatisfy(e -> assertThat(e).contains("spec.template.spec.requirements"));
    }

    @Test
    void ec2NodeClass() {
        // CEL on spec: exactly one of role and instanceProfile.
        assertRejected(
                V1,
                NODE_CLASS,
                "/spec",
                "instanceProfile",
                "KarpenterNodeInstanceProfile-demo",
                "must specify exactly one of ['role', 'instanceProfile']");
        assertRejectedWithout(
                V1, NODE_CLASS, "/spec", "role", "must specify exactly one of ['role', 'instanceProfile']");
        // Required: the server needs AMI selector terms.
        assertRejectedWithout(V1, NODE_CLASS, "/spec", "amiSelectorTerms", "amiSelectorTerms");
        // CEL on an alias: a family Karpenter does not know.
        assertRejected(
                V1, NODE_CLASS, "/spec/amiSelectorTerms/0", "alias", "ubuntu@latest", "spec.amiSelectorTerms[0].alias");
        // Typed metadata: ObjectMeta has no such field.
        assertRejected(V1, NODE_CLASS, "/metadata", "labelz", "x", "labelz");
    }

    @Test
    void provisioner() {
        assertRejectedWithout(V1ALPHA5, PROVISIONER, "/spec/providerRef", "name", "name");
        assertRejected(V1ALPHA5, PROVISIONER, "/spec", "ttlSecondsUntilExpired", "720h", "ttlSecondsUntilExpired");
        assertRejected(V1ALPHA5, PROVISIONER, "/spec", "consolidaton", "x", "consolidaton");
    }

    @Test
    void awsNodeTemplate() {
        ObjectNode wrongType = (ObjectNode) yaml(NODE_TEMPLATE);
        ((ObjectNode) wrongType.path("spec")).put("amiFamily", 3);
        assertThat(V1ALPHA5.errors(wrongType)).anySatisfy(e -> assertThat(e).contains("amiFamily"));
        ObjectNode wrongNested = (ObjectNode) yaml(NODE_TEMPLATE);
        ((ObjectNode) wrongNested.path("spec"))
                .putArray("blockDeviceMappings")
                .addObject()
                .put("deviceName", "/dev/xvda")
                .putObject("ebs")
                .put("volumeSize", "4Gi")
                .put("throughputs", 125);
        assertThat(V1ALPHA5.errors(wrongNested)).anySatisfy(e -> assertThat(e).contains("throughputs"));
    }

    @Test
    void appliesSchemaDefaultsBeforeValidatingAndSkipsTransitionRulesOnCreate() {
        ObjectNode pool = (ObjectNode) yaml(NODE_POOL);
        ((ObjectNode) pool.path("spec")).remove("disruption");
        JsonNode schema = V1.schema("karpenter.sh/v1", "NodePool");
        CrdValidator.applyDefaults(schema, pool);
        assertThat(pool.at("/spec/disruption/consolidateAfter").isTextual()).isTrue();
        assertThat(pool.at("/spec/disruption/budgets/0/nodes").asText()).isEqualTo("10%");
        // NodePool carries a transition rule (replicas may not be added or removed later): not run on create, where
        // oldSelf does not exist.
        assertThat(schema(V1, "karpenter.sh/v1", "NodePool")).contains("oldSelf");
        assertThat(V1.errors(yaml(NODE_POOL))).isEmpty();
    }

    @Test
    void aFailedRuleReportsItsMessageExpressionElseItsMessage() {
        CrdValidator widgets = CrdValidator.of(HelmRender.parse("""
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
                              x-kubernetes-validations:
                                - rule: self.size < 10
                                  messageExpression: "'size ' + string(self.size) + ' is over 9'"
                                  message: too big
                                - rule: self.name != 'x'
                                  message: name may not be x
                """));
        JsonNode widget =
                yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 12, name: x}}");
        assertThat(widgets.errors(widget))
                .containsExactly("spec: Invalid value: size 12 is over 9", "spec: Invalid value: name may not be x");
    }

    private static String schema(CrdValidator validator, String apiVersion, String kind) {
        return validator.schema(apiVersion, kind).toString();
    }

    /** The valid object with {@code field} at {@code pointer} set to {@code value} is rejected naming {@code expected}. */
    private static void assertRejected(
            CrdValidator validator, String valid, String pointer, String field, String value, String expected) {
        ObjectNode bad = (ObjectNode) yaml(valid);
        ((ObjectNode) bad.at(pointer)).put(field, value);
        List<String> errors = validator.errors(bad);
        assertThat(errors)
                .as(pointer + "/" + field + " = " + value)
                .anySatisfy(e -> assertThat(e).contains(expected));
    }

    /** The valid object without {@code field} at {@code pointer} is rejected naming {@code expected}. */
    private static void assertRejectedWithout(
            CrdValidator validator, String valid, String pointer, String field, String expected) {
        ObjectNode bad = (ObjectNode) yaml(valid);
        ((ObjectNode) bad.at(pointer)).remove(field);
        assertThat(validator.errors(bad))
                .as("without " + pointer + "/" + field)
                .anySatisfy(e -> assertThat(e).contains(expected));
    }

    static JsonNode yaml(String text) {
        return HelmRender.parse(text).get(0);
    }
}
