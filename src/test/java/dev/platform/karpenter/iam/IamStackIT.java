package dev.platform.karpenter.iam;

import static dev.platform.karpenter.testing.Json.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.policy.ControllerPolicy;
import dev.platform.karpenter.release.PolicyStatements;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The synthesized IAM stack applied, re-planned and destroyed against moto holding an EKS cluster, its node group
 * and OIDC provider: once for IRSA with the node group's role (the seed's setup, 0.x) in an account without the EC2
 * Spot service-linked role, and once for Pod Identity with a created node role (1.x) in an account that has it.
 * Each scenario is one apply; the moto server is shared.
 */
@IntegrationTest
class IamStackIT {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String ACCOUNT = "123456789012";
    /** IAM's limit on a managed policy document, white space not counted. */
    private static final int MANAGED_POLICY_MAX = 6_144;

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();
    /**
     * The EC2 Spot service-linked role as moto names it (and, as IAM does, refuses to create twice): the stack creates
     * it in an account that lacks it (the default pools allow spot), leaves an existing one alone, and destroy keeps
     * it either way, since other tools in the account may rely on it.
     */
    private static final String SPOT_ROLE = "AWSServiceRoleForspot";

    /** The longest cluster name the controller role name allows, so the policies are at their largest. */
    @Test
    void irsaWithTheNodeGroupRoleAppliesPlansCleanAndDestroys() throws IOException {
        String name = "irsa-reuse-" + "x".repeat(39);
        MotoServer.EksCluster cluster = MOTO.server().createEksCluster(name, "1.27");
        ClusterConfig config = config(name, TestConfigs.V0);
        TerraformRunner terraform = new TerraformRunner(Synthesized.of(config).stackDir(name + "-iam"), MOTO.server());
        List<String> rolesBefore = MOTO.server().listRoleNames();

        terraform.init();
        terraform.apply();

        String controllerRole = "KarpenterIRSA-" + name;
        JsonNode outputs = terraform.output();
        assertThat(outputs.at("/karpenter_irsa_arn/value").asText())
                .isEqualTo("arn:aws:iam::" + ACCOUNT + ":role/" + controllerRole);
        assertThat(outputs.at("/karpenter_node_role_arn/value").asText()).isEqualTo(cluster.nodeRoleArn());
        assertThat(outputs.at("/karpenter_node_role_name/value").asText()).isEqualTo(cluster.nodeRoleName());
        assertThat(outputs.at("/karpenter_aws_node_instance_profile_name/value").asText())
                .isEqualTo("KarpenterNodeInstanceProfile-" + name);
        assertThat(MOTO.server().listRoleNames())
                .as("no node role created")
                .containsExactlyInAnyOrderElementsOf(plus(rolesBefore, controllerRole, SPOT_ROLE));

        String issuer = cluster.issuerUrl().substring("https://".length());
        JsonNode trust = role(controllerRole).path("AssumeRolePolicyDocument").path("Statement");
        assertThat(trust).hasSize(1);
        assertThat(texts(trust.at("/0/Action"))).containsExactly("sts:AssumeRoleWithWebIdentity");
        assertThat(texts(trust.at("/0/Principal/Federated"))).containsExactly(cluster.oidcProviderArn());
        JsonNode stringEquals = trust.at("/0/Condition/StringEquals");
        assertThat(texts(stringEquals.path(issuer + ":sub")))
                .containsExactly("system:serviceaccount:karpenter:karpenter");
        assertThat(texts(stringEquals.path(issuer + ":aud"))).containsExactly("sts.amazonaws.com");

        assertControllerPolicies(config, "v0.30.0", controllerRole, cluster.nodeRoleArn());
        JsonNode profile = MOTO.server().boto3("""
                emit(boto3.client("iam").get_instance_profile(InstanceProfileName=args[0])["InstanceProfile"])
                """, "KarpenterNodeInstanceProfile-" + name);
        assertThat(profile.at("/Roles/0/RoleName").asText()).isEqualTo(cluster.nodeRoleName());
        // moto lacks ListInstanceProfileTags; GetInstanceProfile carries the tags too.
        assertThat(profile.path("Tags")).anySatisfy(tag -> {
            assertThat(tag.path("Key").asText()).isEqualTo("Team");
            assertThat(tag.path("Value").asText()).isEqualTo("platform");
        });
        assertThat(roleTags(controllerRole)).containsEntry("Team", "platform");

        destroyAfterACleanPlan(terraform);

        assertThat(MOTO.server().listRoleNames())
                .as("the reused node role survives")
                .containsExactlyInAnyOrderElementsOf(plus(rolesBefore, SPOT_ROLE));
        assertThat(MOTO.server().listInstanceProfileNames()).isEmpty();
    }

    /**
     * moto (5.2) implements neither EKS access entries nor Pod Identity associations: their API paths answer 404.
     * After validating the full configuration, an override file sets {@code count = 0} on exactly those two
     * resources, so everything else is applied, re-planned and destroyed for real; their content is covered by
     * IamStackTest.
     */
    @Test
    void podIdentityWithACreatedNodeRoleAppliesPlansCleanAndDestroys() throws IOException {
        String name = "pod-create";
        MOTO.server().createEksCluster(name, "1.32");
        ClusterConfig config = config(
                name,
                TestConfigs.V1,
                "controller_identity = \"pod_identity\"",
                "create_iam_role = true",
                "irsa_use_name_prefix = true");
        Synthesized synthesized = Synthesized.of(config);
        Path stackDir = synthesized.stackDir(name + "-iam");
        TerraformRunner terraform = new TerraformRunner(stackDir, MOTO.server());
        MOTO.server().boto3("""
                emit(boto3.client("iam").create_service_linked_role(AWSServiceName="spot.amazonaws.com")["Role"]["RoleName"])
                """);
        String spotRoleCreated = spotRoleCreateDate();
        List<String> rolesBefore = MOTO.server().listRoleNames();
        assertThat(rolesBefore).contains(SPOT_ROLE);

        terraform.init();
        terraform.validate();
        disableResourcesMotoLacks(synthesized.stack(name + "-iam"), stackDir);
        terraform.apply();

        String nodeRole = "KarpenterNodeRole-" + name;
        String nodeRoleArn = "arn:aws:iam::" + ACCOUNT + ":role/" + nodeRole;
        JsonNode outputs = terraform.output();
        String controllerRoleArn = outputs.at("/karpenter_irsa_arn/value").asText();
        String controllerRole = controllerRoleArn.substring(controllerRoleArn.lastIndexOf('/') + 1);
        assertThat(controllerRole).startsWith("KarpenterIRSA-" + name + "-");
        assertThat(outputs.at("/karpenter_node_role_arn/value").asText()).isEqualTo(nodeRoleArn);
        assertThat(outputs.at("/karpenter_node_role_name/value").asText()).isEqualTo(nodeRole);
        assertThat(outputs.at("/karpenter_aws_node_instance_profile_name/value").asText())
                .isEmpty();
        assertThat(MOTO.server().listRoleNames())
                .as("the account's spot role is not created again")
                .containsExactlyInAnyOrderElementsOf(plus(rolesBefore, controllerRole, nodeRole));
        assertThat(spotRoleCreateDate()).as("the same spot role, not a new one").isEqualTo(spotRoleCreated);
        assertThat(MOTO.server().listInstanceProfileNames()).isEmpty();

        JsonNode trust = role(controllerRole).path("AssumeRolePolicyDocument").path("Statement");
        assertThat(trust).hasSize(1);
        assertThat(texts(trust.at("/0/Principal/Service"))).containsExactly("pods.eks.amazonaws.com");
        assertThat(texts(trust.at("/0/Action"))).containsExactlyInAnyOrder("sts:AssumeRole", "sts:TagSession");
        JsonNode nodeTrust = role(nodeRole).path("AssumeRolePolicyDocument").path("Statement");
        assertThat(texts(nodeTrust.at("/0/Principal/Service"))).containsExactly("ec2.amazonaws.com");
        assertThat(texts(nodeTrust.at("/0/Action"))).containsExactly("sts:AssumeRole");
        assertThat(attachedPolicyArns(nodeRole))
                .containsExactlyInAnyOrder(
                        "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
                        "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
                        "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
                        "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly");

        assertControllerPolicies(config, TestConfigs.V1, controllerRole, nodeRoleArn);

        destroyAfterACleanPlan(terraform);

        assertThat(MOTO.server().listRoleNames())
                .as("the account's spot role outlives this cluster's stack")
                .containsExactlyInAnyOrderElementsOf(rolesBefore);
        assertThat(MOTO.server().listInstanceProfileNames()).isEmpty();
    }

    private static ClusterConfig config(String name, String chartVersion, String... extraLines) {
        List<String> lines = new ArrayList<>(List.of("tags = { Team = \"platform\" }"));
        lines.addAll(List.of(extraLines));
        return TestConfigs.configFor(name, MotoServer.REGION, chartVersion, lines.toArray(String[]::new));
    }

    /** The customer-managed policies moto holds are the upstream statements, attached to the controller role. */
    private static void assertControllerPolicies(
            ClusterConfig config, String templateVersion, String controllerRole, String nodeRoleArn) {
        String clusterArn = MOTO.server().boto3("""
                emit(boto3.client("eks").describe_cluster(name=args[0])["cluster"]["arn"])
                """, config.clusterName()).asText();
        ControllerPolicy.Scope scope = new ControllerPolicy.Scope(
                "aws",
                MotoServer.REGION,
                ACCOUNT,
                config.clusterName(),
                clusterArn,
                "arn:aws:sqs:" + MotoServer.REGION + ":" + ACCOUNT + ":"
                        + config.names().queue(),
                nodeRoleArn,
                "ec2.amazonaws.com");
        Map<String, Set<PolicyStatements.Normalized>> expected = PolicyStatements.upstream(templateVersion, scope);

        Map<String, String> documents = new HashMap<>();
        MOTO.server()
                .boto3("""
                iam = boto3.client("iam")
                result = {}
                for page in iam.get_paginator("list_policies").paginate(Scope="Local"):
                    for p in page["Policies"]:
                        version = iam.get_policy_version(PolicyArn=p["Arn"], VersionId=p["DefaultVersionId"])
                        document = version["PolicyVersion"]["Document"]
                        result[p["PolicyName"]] = document if isinstance(document, str) else json.dumps(document)
                emit(result)
                """)
                .fields()
                .forEachRemaining(e -> documents.put(e.getKey(), e.getValue().asText()));

        assertThat(documents.keySet())
                .containsExactlyInAnyOrderElementsOf(expected.keySet().stream()
                        .map(config.names()::controllerPolicy)
                        .toList());
        expected.forEach((group, statements) -> {
            String document = documents.get(config.names().controllerPolicy(group));
            assertThat(document.replaceAll("\\s", "")).as(group + " size").hasSizeLessThanOrEqualTo(MANAGED_POLICY_MAX);
            assertThat(PolicyStatements.fromDocument(document)).as(group).isEqualTo(statements);
        });
        assertThat(attachedPolicyArns(controllerRole))
                .containsExactlyInAnyOrderElementsOf(expected.keySet().stream()
                        .map(group -> "arn:aws:iam::" + ACCOUNT + ":policy/"
                                + config.names().controllerPolicy(group))
                        .toList());
    }

    /** Writes an override file giving count = 0 to the resources whose EKS APIs moto does not implement. */
    private static void disableResourcesMotoLacks(JsonNode stack, Path stackDir) throws IOException {
        ObjectNode override = JSON.createObjectNode();
        for (String type : List.of("aws_eks_access_entry", "aws_eks_pod_identity_association")) {
            JsonNode ofType = Synthesized.resources(stack, type);
            assertThat(ofType.size()).as(type + " in the stack").isEqualTo(1);
            ofType.fieldNames()
                    .forEachRemaining(id -> override.withObjectProperty("resource")
                            .withObjectProperty(type)
                            .withObjectProperty(id)
                            .put("count", 0));
        }
        Files.writeString(stackDir.resolve("moto_override.tf.json"), override.toString());
    }

    private static JsonNode role(String name) {
        return MOTO.server().boto3("""
                emit(boto3.client("iam").get_role(RoleName=args[0])["Role"])
                """, name);
    }

    private static List<String> attachedPolicyArns(String role) {
        return texts(MOTO.server().boto3("""
                pages = boto3.client("iam").get_paginator("list_attached_role_policies").paginate(RoleName=args[0])
                emit([p["PolicyArn"] for page in pages for p in page["AttachedPolicies"]])
                """, role));
    }

    private static String spotRoleCreateDate() {
        return role(SPOT_ROLE).path("CreateDate").asText();
    }

    private static Map<String, String> roleTags(String role) {
        Map<String, String> tags = new HashMap<>();
        MOTO.server()
                .boto3("""
                emit({t["Key"]: t["Value"] for t in boto3.client("iam").list_role_tags(RoleName=args[0])["Tags"]})
                """, role)
                .fields()
                .forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        return tags;
    }

    private static List<String> plus(List<String> list, String... more) {
        List<String> result = new ArrayList<>(list);
        result.addAll(List.of(more));
        return result;
    }

    /** The plan right after the apply changes nothing; the destroy then removes every policy the stack made. */
    private static void destroyAfterACleanPlan(TerraformRunner terraform) {
        assertThat(terraform.plan())
                .as("plan exit code right after apply (2 = changes)")
                .isZero();
        terraform.destroy();
        assertThat(MOTO.server().listPolicyNames()).isEmpty();
    }
}
