package dev.platform.karpenter.iam;

import static dev.platform.karpenter.testing.Json.fieldNames;
import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.Synthesized.dataAddress;
import static dev.platform.karpenter.testing.Synthesized.dataSources;
import static dev.platform.karpenter.testing.Synthesized.onlyData;
import static dev.platform.karpenter.testing.Synthesized.onlyId;
import static dev.platform.karpenter.testing.Synthesized.onlyResource;
import static dev.platform.karpenter.testing.Synthesized.output;
import static dev.platform.karpenter.testing.Synthesized.resources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.policy.ControllerPolicy;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.PolicyStatements;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The synthesized {@code <cluster>-iam} stacks of several configurations, synthesized together once. */
@KernelOnlyThroughSynthesized
class IamStackTest {
    private static final String LONGEST = "c".repeat(50);
    private static final String LONGEST_WITH_PREFIX = "p".repeat(23);
    private static final String PATH_ROLE_ARN = "arn:aws:iam::123456789012:role/nodes/team-a/my-node-role";
    /** Each cluster exercises one combination of identity, node role and release. */
    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster("irsa", TestConfigs.V0, "tags = { Team = \"platform\", CostCenter = \"42\" }")
            .cluster(
                    "pod",
                    TestConfigs.V1,
                    "controller_identity = \"pod_identity\"",
                    "create_iam_role = true",
                    "irsa_use_name_prefix = true",
                    "karpenter_namespace = \"kube-system\"",
                    "karpenter_service_account = \"karpenter-controller\"",
                    "tags = { Team = \"platform\" }")
            .cluster("v0create", TestConfigs.V0, "create_iam_role = true")
            .cluster("v1irsa", TestConfigs.V1, "node_group_name = \"system\"", "queue_name = \"karpenter-events\"")
            .cluster("byarn", TestConfigs.V0, "iam_role_arn = \"" + PATH_ROLE_ARN + "\"")
            .cluster(
                    "byarnjoined",
                    TestConfigs.V1,
                    "iam_role_arn = \"" + PATH_ROLE_ARN + "\"",
                    "iam_role_access_entry = false")
            .cluster(LONGEST, TestConfigs.V1)
            .cluster(LONGEST_WITH_PREFIX, TestConfigs.V1, "irsa_use_name_prefix = true", "create_iam_role = true")
            .cluster(TestConfigs.configFor("china", "cn-north-1", TestConfigs.V0))
            .cluster(TestConfigs.configFor("sovereign", "eusc-de-east-1", TestConfigs.V1))
            .cluster(TestConfigs.configFor("chinacreate", "cn-north-1", TestConfigs.V1, "create_iam_role = true"))
            .cluster(
                    "windows",
                    TestConfigs.V1,
                    "create_iam_role = true",
                    "default_node_pool = false",
                    "node_classes = [{ name = \"windows\", ami_family = \"Windows2022\" }]",
                    "node_pools = [{ name = \"windows\", node_class = \"windows\" }]")
            .synthesize();

    private static final List<String> CLUSTERS =
            List.of("irsa", "pod", "v0create", "v1irsa", "byarn", "byarnjoined", LONGEST, LONGEST_WITH_PREFIX);

    private static JsonNode stack(String cluster) {
        return APP.stack(cluster + "-iam");
    }

    /** A node class of a Windows family, read from the rendered objects, makes the nodes' access entry EC2_WINDOWS. */
    @Test
    void windowsNodesJoinThroughAnEc2WindowsAccessEntry() {
        assertThat(onlyResource(stack("windows"), "aws_eks_access_entry")
                        .path("type")
                        .asText())
                .isEqualTo("EC2_WINDOWS");
        assertThat(onlyResource(stack("pod"), "aws_eks_access_entry")
                        .path("type")
                        .asText())
                .isEqualTo("EC2_LINUX");
    }

    // --- controller role trust -------------------------------------------------------------------------------

    @Test
    void irsaTrustsTheClusterOidcProviderForTheControllerServiceAccountOnly() {
        JsonNode stack = stack("irsa");
        String cluster = "data.aws_eks_cluster." + onlyId(dataSources(stack, "aws_eks_cluster"));
        String issuer = "${" + cluster + ".identity[0].oidc[0].issuer}";
        JsonNode locals = stack.path("locals").deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) locals)
                .remove("karpenter_upgrade_refusals"); // the step guard's
        assertThat(locals.size()).isEqualTo(1);
        String hostPathLocal = locals.fieldNames().next();
        assertThat(locals.path(hostPathLocal).asText())
                .isEqualTo("${replace(" + cluster + ".identity[0].oidc[0].issuer, \"https://\", \"\")}");
        String hostPath = "${local." + hostPathLocal + "}";
        JsonNode oidc = onlyData(stack, "aws_iam_openid_connect_provider");
        assertThat(oidc.path("url").asText()).isEqualTo(issuer);

        JsonNode trust = trustStatement(stack, controllerRole(stack));
        assertThat(trust.path("Effect").asText()).isEqualTo("Allow");
        assertThat(texts(trust.path("Action"))).containsExactly("sts:AssumeRoleWithWebIdentity");
        assertThat(fieldNames(trust.path("Principal"))).containsExactly("Federated");
        assertThat(texts(trust.at("/Principal/Federated")))
                .containsExactly("${data.aws_iam_openid_connect_provider."
                        + onlyId(dataSources(stack, "aws_iam_openid_connect_provider")) + ".arn}");
        assertThat(conditions(trust))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "StringEquals " + hostPath + ":sub", List.of("system:serviceaccount:karpenter:karpenter"),
                        "StringEquals " + hostPath + ":aud", List.of("sts.amazonaws.com")));
        assertThat(resources(stack, "aws_eks_pod_identity_association").size()).isZero();
    }

    @Test
    void podIdentityTrustsTheAgentAndAssociatesTheServiceAccount() {
        JsonNode stack = stack("pod");
        JsonNode role = controllerRole(stack);
        JsonNode trust = trustStatement(stack, role);
        assertThat(texts(trust.path("Action"))).containsExactlyInAnyOrder("sts:AssumeRole", "sts:TagSession");
        assertThat(fieldNames(trust.path("Principal"))).containsExactly("Service");
        assertThat(texts(trust.at("/Principal/Service"))).containsExactly("pods.eks.amazonaws.com");
        assertThat(conditions(trust)).isEmpty();
        assertThat(dataSources(stack, "aws_iam_openid_connect_provider").size())
                .as("no OIDC provider needed")
                .isZero();

        JsonNode association = onlyResource(stack, "aws_eks_pod_identity_association");
        assertThat(association.path("cluster_name").asText())
                .isEqualTo("${data.aws_eks_cluster." + onlyId(dataSources(stack, "aws_eks_cluster")) + ".name}");
        assertThat(association.path("namespace").asText()).isEqualTo("kube-system");
        assertThat(association.path("service_account").asText()).isEqualTo("karpenter-controller");
        assertThat(association.path("role_arn").asText())
                .isEqualTo("${aws_iam_role." + controllerRoleId(stack) + ".arn}");
    }

    // --- controller role names -------------------------------------------------------------------------------

    @Test
    void controllerRoleHasTheFixedNameByDefault() {
        JsonNode role = controllerRole(stack("irsa"));
        assertThat(role.path("name").asText()).isEqualTo("KarpenterIRSA-irsa");
        assertThat(role.has("name_prefix")).isFalse();
    }

    @Test
    void controllerRoleHasANamePrefixWhenAsked() {
        JsonNode role = controllerRole(stack("pod"));
        assertThat(role.path("name_prefix").asText()).isEqualTo("KarpenterIRSA-pod-");
        assertThat(role.has("name")).isFalse();
    }

    @Test
    void theLongestValidClusterNamesFitIamNameLimits() {
        assertThat(controllerRole(stack(LONGEST)).path("name").asText()).hasSize(64);
        JsonNode prefixed = stack(LONGEST_WITH_PREFIX);
        assertThat(controllerRole(prefixed).path("name_prefix").asText()).hasSize(38);
        assertThat(nodeRole(prefixed).path("name").asText()).hasSizeLessThanOrEqualTo(64);
        for (String cluster : List.of(LONGEST, LONGEST_WITH_PREFIX)) {
            resources(stack(cluster), "aws_iam_policy")
                    .forEach(policy -> assertThat(policy.path("name").asText()).hasSizeLessThanOrEqualTo(128));
        }
    }

    // --- controller policies ---------------------------------------------------------------------------------

    /** In China launching passes the role to ec2.amazonaws.com.cn, adding it to an instance profile to the global one. */
    @ParameterizedTest(name = "{0}: the node role is passed to {1}")
    @CsvSource({
        "irsa, ec2.amazonaws.com",
        "v1irsa, ec2.amazonaws.com",
        "china, 'ec2.amazonaws.com,ec2.amazonaws.com.cn'",
        "sovereign, ec2.amazonaws.eu"
    })
    void passesTheNodeRoleToTheEc2PrincipalOfTheClustersPartition(String cluster, String principals) {
        String policyName = "KarpenterController-" + cluster + "-IAMIntegration";
        JsonNode policy = null;
        for (JsonNode resource : resources(stack(cluster), "aws_iam_policy")) {
            if (resource.path("name").asText().equals(policyName)) {
                policy = Json.parse(resource.path("policy").asText());
            }
        }
        assertThat(policy).as(policyName).isNotNull();
        JsonNode passRole = null;
        for (JsonNode statement : policy.path("Statement")) {
            if (statement.path("Sid").asText().equals("AllowPassingInstanceRole")) {
                passRole = statement;
            }
        }
        assertThat(passRole).as("the PassRole statement").isNotNull();
        assertThat(texts(passRole.at("/Condition/StringEquals/iam:PassedToService")))
                .containsExactly(principals.split(","));
    }

    /**
     * @param templateVersion the upstream template the cluster's release copies, "newest" for the newest release's
     * @param nodeRole "created", "node group" or the ARN given as iam_role_arn
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "irsa, v0.30.0, irsa, node group",
        "pod, newest, pod, created",
        "v0create, v0.30.0, v0create, created",
        "v1irsa, newest, karpenter-events, node group",
        "byarn, v0.30.0, byarn, " + PATH_ROLE_ARN
    })
    void controllerPoliciesAreTheUpstreamStatementsScopedToThisClusterQueueAndNodeRole(
            String cluster, String templateVersion, String queue, String nodeRole) {
        JsonNode stack = stack(cluster);
        String partition = "${" + dataAddress(stack, "aws_partition") + ".partition}";
        String region = "${" + dataAddress(stack, "aws_region") + ".name}";
        String account = "${" + dataAddress(stack, "aws_caller_identity") + ".account_id}";
        String nodeRoleArn = switch (nodeRole) {
            case "created" -> "${aws_iam_role." + idOf(resources(stack, "aws_iam_role"), nodeRole(stack)) + ".arn}";
            case "node group" -> "${" + dataAddress(stack, "aws_eks_node_group") + ".node_role_arn}";
            default -> nodeRole;
        };
        ControllerPolicy.Scope expectedScope = new ControllerPolicy.Scope(
                partition,
                region,
                account,
                cluster,
                "${" + dataAddress(stack, "aws_eks_cluster") + ".arn}",
                "arn:" + partition + ":sqs:" + region + ":" + account + ":" + queue,
                nodeRoleArn,
                "ec2.amazonaws.com");
        Map<String, Set<PolicyStatements.Normalized>> expected = PolicyStatements.upstream(
                templateVersion.equals("newest")
                        ? KarpenterRelease.newest().row().policy().template()
                        : templateVersion,
                expectedScope);

        Map<String, JsonNode> policiesByName = byField(resources(stack, "aws_iam_policy"), "name");
        assertThat(policiesByName.keySet())
                .containsExactlyInAnyOrderElementsOf(expected.keySet().stream()
                        .map(group -> "KarpenterController-" + cluster + "-" + group)
                        .toList());
        Map<String, JsonNode> attachments = byField(resources(stack, "aws_iam_role_policy_attachment"), "policy_arn");
        String controllerRoleName = "${aws_iam_role." + controllerRoleId(stack) + ".name}";
        expected.forEach((group, statements) -> {
            JsonNode policy = policiesByName.get("KarpenterController-" + cluster + "-" + group);
            String policyId = idOf(resources(stack, "aws_iam_policy"), policy);
            JsonNode document = Json.parse(policy.path("policy").asText());
            assertThat(document.path("Version").asText()).isEqualTo("2012-10-17");
            assertThat(PolicyStatements.fromIamJson(document.path("Statement")))
                    .as(group)
                    .isEqualTo(statements);
            JsonNode attachment = attachments.get("${aws_iam_policy." + policyId + ".arn}");
            assertThat(attachment).as(group + " attached").isNotNull();
            assertThat(attachment.path("role").asText()).isEqualTo(controllerRoleName);
        });
    }

    @Test
    void dependsOnNoOtherStack() {
        for (String cluster : CLUSTERS) {
            JsonNode stack = stack(cluster);
            assertThat(stack.path("data").has("terraform_remote_state"))
                    .as(cluster)
                    .isFalse();
            assertThat(APP.manifest().at("/stacks/" + cluster + "-iam/dependencies"))
                    .as(cluster)
                    .isEmpty();
        }
    }

    // --- node role -------------------------------------------------------------------------------------------

    @Test
    void reusesTheNodeGroupRoleWithoutAddingARoleOrAccessEntry() {
        JsonNode stack = stack("v1irsa");
        JsonNode nodeGroup = onlyData(stack, "aws_eks_node_group");
        assertThat(nodeGroup.path("cluster_name").asText()).isEqualTo("v1irsa");
        assertThat(nodeGroup.path("node_group_name").asText()).isEqualTo("system");
        assertThat(resources(stack, "aws_iam_role"))
                .as("only the controller role")
                .hasSize(1);
        assertThat(resources(stack, "aws_eks_access_entry").size()).isZero();
        String roleArn =
                "${data.aws_eks_node_group." + onlyId(dataSources(stack, "aws_eks_node_group")) + ".node_role_arn}";
        assertThat(output(stack, "karpenter_node_role_arn")).isEqualTo(roleArn);
        assertThat(output(stack, "karpenter_node_role_name"))
                .isEqualTo("${element(reverse(split(\"/\", " + roleArn.substring(2, roleArn.length() - 1) + ")), 0)}");
    }

    @Test
    void reusesARoleGivenByArnAndGivesItAnAccessEntryUnlessANodeGroupHasIt() {
        JsonNode stack = stack("byarn");
        JsonNode groups = dataSources(stack, "aws_eks_node_groups").path("given_role_node_groups");
        assertThat(groups.path("cluster_name").asText()).isEqualTo("byarn");
        JsonNode group = dataSources(stack, "aws_eks_node_group").path("given_role_node_group");
        assertThat(dataSources(stack, "aws_eks_node_group").size())
                .as("only to compare roles")
                .isEqualTo(1);
        assertThat(group.path("for_each").asText())
                .isEqualTo("${data.aws_eks_node_groups.given_role_node_groups.names}");
        assertThat(group.path("node_group_name").asText()).isEqualTo("${each.value}");
        assertThat(resources(stack, "aws_iam_role")).hasSize(1);
        JsonNode entry = onlyResource(stack, "aws_eks_access_entry");
        assertThat(entry.path("count").asText())
                .isEqualTo("${contains([for g in data.aws_eks_node_group.given_role_node_group"
                        + " : g.node_role_arn], \"" + PATH_ROLE_ARN + "\") ? 0 : 1}");
        assertThat(entry.path("principal_arn").asText()).isEqualTo(PATH_ROLE_ARN);
        assertThat(entry.path("type").asText()).isEqualTo("EC2_LINUX");
        assertThat(entry.at("/lifecycle/precondition/0/error_message").asText())
                .contains("iam_role_access_entry = false", "API_AND_CONFIG_MAP");
        assertThat(output(stack, "karpenter_node_role_arn")).isEqualTo(PATH_ROLE_ARN);
        // The name is the last path segment, so a role under /nodes/team-a/ is named my-node-role.
        assertThat(output(stack, "karpenter_node_role_name")).isEqualTo("my-node-role");
    }

    @Test
    void aGivenRoleThatCanAlreadyJoinGetsNothing() {
        JsonNode stack = stack("byarnjoined");
        assertThat(resources(stack, "aws_eks_access_entry").size()).isZero();
        assertThat(dataSources(stack, "aws_eks_node_groups").size()).isZero();
        assertThat(dataSources(stack, "aws_eks_node_group").size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "pod, AmazonEC2ContainerRegistryPullOnly, ec2.amazonaws.com",
        "v0create, AmazonEC2ContainerRegistryReadOnly, ec2.amazonaws.com",
        "chinacreate, AmazonEC2ContainerRegistryPullOnly, ec2.amazonaws.com.cn"
    })
    void createsANodeRoleTrustedByEc2WithTheReleasesManagedPoliciesAndAnAccessEntry(
            String cluster, String ecr, String ec2Principal) {
        JsonNode stack = stack(cluster);
        String partition = dataAddress(stack, "aws_partition");
        JsonNode role = nodeRole(stack);
        String roleId = idOf(resources(stack, "aws_iam_role"), role);
        assertThat(role.path("name").asText()).isEqualTo("KarpenterNodeRole-" + cluster);

        JsonNode trust = trustStatement(stack, role);
        assertThat(texts(trust.path("Action"))).containsExactly("sts:AssumeRole");
        assertThat(fieldNames(trust.path("Principal"))).containsExactly("Service");
        assertThat(texts(trust.at("/Principal/Service"))).containsExactly(ec2Principal);

        List<String> attached = new ArrayList<>();
        resources(stack, "aws_iam_role_policy_attachment").forEach(a -> {
            if (a.path("role").asText().equals("${aws_iam_role." + roleId + ".name}")) {
                attached.add(a.path("policy_arn").asText());
            }
        });
        assertThat(attached)
                .containsExactlyInAnyOrderElementsOf(
                        List.of(
                                        "AmazonEKSWorkerNodePolicy",
                                        "AmazonEKS_CNI_Policy",
                                        "AmazonSSMManagedInstanceCore",
                                        ecr)
                                .stream()
                                .map(p -> "arn:${" + partition + ".partition}:iam::aws:policy/" + p)
                                .toList());

        JsonNode accessEntry = onlyResource(stack, "aws_eks_access_entry");
        assertThat(accessEntry.path("type").asText()).isEqualTo("EC2_LINUX");
        assertThat(accessEntry.path("principal_arn").asText()).isEqualTo("${aws_iam_role." + roleId + ".arn}");
        assertThat(accessEntry.path("cluster_name").asText())
                .isEqualTo("${" + dataAddress(stack, "aws_eks_cluster") + ".name}");
        JsonNode precondition = accessEntry.at("/lifecycle/precondition/0");
        assertThat(precondition.path("condition").asText())
                .isEqualTo("${(try(" + dataAddress(stack, "aws_eks_cluster")
                        + ".access_config[0].authentication_mode, \"\") != \"CONFIG_MAP\")}");
        assertThat(precondition.path("error_message").asText()).contains("create_iam_role", "API_AND_CONFIG_MAP");
        assertThat(dataSources(stack, "aws_eks_node_group").size()).isZero();
        assertThat(output(stack, "karpenter_node_role_arn")).isEqualTo("${aws_iam_role." + roleId + ".arn}");
        assertThat(output(stack, "karpenter_node_role_name")).isEqualTo("${aws_iam_role." + roleId + ".name}");
    }

    // --- instance profile ------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"irsa", "v0create", "byarn"})
    void version0MakesAnInstanceProfileForTheNodeRole(String cluster) {
        JsonNode stack = stack(cluster);
        JsonNode profile = onlyResource(stack, "aws_iam_instance_profile");
        assertThat(profile.path("name").asText()).isEqualTo("KarpenterNodeInstanceProfile-" + cluster);
        assertThat(profile.path("role").asText()).isEqualTo(output(stack, "karpenter_node_role_name"));
        assertThat(output(stack, "karpenter_aws_node_instance_profile_name"))
                .isEqualTo("${aws_iam_instance_profile." + onlyId(resources(stack, "aws_iam_instance_profile"))
                        + ".name}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pod", "v1irsa"})
    void version1MakesNoInstanceProfile(String cluster) {
        JsonNode stack = stack(cluster);
        assertThat(resources(stack, "aws_iam_instance_profile").size()).isZero();
        assertThat(output(stack, "karpenter_aws_node_instance_profile_name")).isEmpty();
    }

    // --- outputs and tags ------------------------------------------------------------------------------------

    @Test
    void outputsTheSeedsNames() {
        JsonNode stack = stack("irsa");
        // Besides these, cdktf adds one "cross-stack-output-..." per value the controller and node pool stacks read;
        // the step guard's outputs record the deploy (upgrade.StepGuardTest).
        assertThat(fieldNames(stack.path("output")).stream().filter(name -> !name.startsWith("cross-stack-output-")))
                .containsExactlyInAnyOrder(
                        "karpenter_irsa_arn",
                        "karpenter_aws_node_instance_profile_name",
                        "karpenter_node_role_arn",
                        "karpenter_node_role_name",
                        "karpenter_chart_version",
                        "karpenter_upgrade_station",
                        "karpenter_step_guard");
        assertThat(output(stack, "karpenter_irsa_arn"))
                .isEqualTo("${aws_iam_role." + controllerRoleId(stack) + ".arn}");
    }

    /**
     * Tags reach every resource through the provider's default_tags, which the AWS provider applies to each
     * resource type that has tags_all; the test checks that every taggable type in the stack is one of those.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {"irsa | {\"Team\": \"platform\", \"CostCenter\": \"42\"}", "pod | {\"Team\": \"platform\"}"})
    void tagsEveryTaggableResourceThroughDefaultTags(String cluster, String tags) {
        JsonNode stack = stack(cluster);
        assertThat(stack.at("/provider/aws/0/default_tags/0/tags")).isEqualTo(Json.parse(tags));

        JsonNode schemas = Json.read(Path.of("bindings/aws-provider-schema.json"))
                .at("/provider_schemas/registry.terraform.io~1hashicorp~1aws/resource_schemas");
        List<String> taggable = new ArrayList<>();
        for (String type : fieldNames(stack.path("resource"))) {
            if (type.equals("terraform_data")) {
                continue; // Terraform's built-in, not an AWS resource
            }
            JsonNode attributes = schemas.at("/" + type + "/block/attributes");
            assertThat(attributes.isMissingNode()).as(type + " in the schema").isFalse();
            if (attributes.has("tags")) {
                assertThat(attributes.has("tags_all"))
                        .as(type + " takes default_tags")
                        .isTrue();
                taggable.add(type);
            }
        }
        assertThat(taggable).contains("aws_iam_role", "aws_iam_policy");
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static JsonNode controllerRole(JsonNode stack) {
        return resources(stack, "aws_iam_role").path(controllerRoleId(stack));
    }

    private static String controllerRoleId(JsonNode stack) {
        for (String id : fieldNames(resources(stack, "aws_iam_role"))) {
            if (id.startsWith("controller-role")) {
                return id;
            }
        }
        throw new AssertionError("no controller role in " + resources(stack, "aws_iam_role"));
    }

    private static JsonNode nodeRole(JsonNode stack) {
        for (JsonNode role : resources(stack, "aws_iam_role")) {
            if (role.path("name").asText().startsWith("KarpenterNodeRole-")) {
                return role;
            }
        }
        throw new AssertionError("no node role in " + resources(stack, "aws_iam_role"));
    }

    /** The single statement of the trust policy in a role's assume_role_policy (IAM's JSON, with interpolations). */
    private static JsonNode trustStatement(JsonNode stack, JsonNode role) {
        JsonNode document = Json.parse(role.path("assume_role_policy").asText());
        assertThat(document.path("Version").asText()).isEqualTo("2012-10-17");
        assertThat(document.path("Statement")).hasSize(1);
        return document.path("Statement").get(0);
    }

    /** "operator key" -> values, from a statement's Condition block. */
    private static Map<String, List<String>> conditions(JsonNode statement) {
        Map<String, List<String>> result = new HashMap<>();
        statement
                .path("Condition")
                .fields()
                .forEachRemaining(operator -> operator.getValue()
                        .fields()
                        .forEachRemaining(
                                key -> result.put(operator.getKey() + " " + key.getKey(), texts(key.getValue()))));
        return result;
    }

    private static String idOf(JsonNode byId, JsonNode block) {
        for (String id : fieldNames(byId)) {
            if (byId.get(id) == block) {
                return id;
            }
        }
        throw new AssertionError("not found: " + block);
    }

    private static Map<String, JsonNode> byField(JsonNode byId, String field) {
        Map<String, JsonNode> result = new HashMap<>();
        byId.forEach(block -> result.put(block.path(field).asText(), block));
        return result;
    }
}
