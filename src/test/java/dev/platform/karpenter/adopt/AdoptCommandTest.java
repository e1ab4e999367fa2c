package dev.platform.karpenter.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ControllerIdentity;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/adopt on the states of terraform-aws-modules' karpenter module as Terraform left them after applying the
 * real module's v19.21.0 (the seed guide's inputs) and v20.37.2 to moto ({@code terraform show -json}), on a v21 state
 * written by hand (labelled so in the file), and on bad input.
 */
class AdoptCommandTest {
    private static final Path STATES = resource("adopt/states");

    @TempDir
    Path dir;

    private final Console console = new Console();

    private int run(String... args) {
        return AdoptCommand.run(dir, args, console.out(), console.err());
    }

    @Test
    void theSeedsModuleV19BecomesTheAdoptSettingWithItsNamesAndEveryResourceIsForgotten() throws IOException {
        Path removed = dir.resolve("removed.tf");

        assertThat(run("--state", STATES.resolve("v19.21.0-seed.show.json").toString(), "--removed", "removed.tf"))
                .isZero();

        assertThat(console.stdout()).isEqualTo("""
                # bin/adopt: cluster eks-cluster, from v19.21.0-seed.show.json
                queue_name = "Karpenter-eks-cluster"
                adopt = {
                  controller_role = "KarpenterIRSA-eks-cluster"
                  instance_profile = "Karpenter-eks-cluster-20261202164355500300000004"
                  queue = "http://127.0.0.1:5055/123456789012/Karpenter-eks-cluster"
                  event_rules = {
                    Health = "KarpenterHealthEvent-20261202164355501900000005"
                    Rebalance = "KarpenterInstanceRebalance-20261202164355487600000001"
                    SpotInterrupt = "KarpenterSpotInterrupt-20261202164355494500000003"
                    StateChange = "KarpenterInstanceStateChange-20261202164355490000000002"
                  }
                }
                """);
        assertThat(removedFroms(removed))
                .containsExactlyInAnyOrder(
                        "module.karpenter.aws_cloudwatch_event_rule.this",
                        "module.karpenter.aws_cloudwatch_event_target.this",
                        "module.karpenter.aws_iam_instance_profile.this",
                        "module.karpenter.aws_iam_policy.irsa",
                        "module.karpenter.aws_iam_role.irsa",
                        "module.karpenter.aws_iam_role_policy_attachment.irsa",
                        "module.karpenter.aws_sqs_queue.this",
                        "module.karpenter.aws_sqs_queue_policy.this");
        assertThat(Files.readString(removed)).contains("lifecycle {\n    destroy = false\n  }");
        assertThat(console.stderr())
                .contains("module.karpenter: terraform-aws-modules/eks//modules/karpenter v19.x")
                .contains(
                        "module.karpenter.aws_iam_policy.irsa[0] (KarpenterIRSA-eks-cluster-20261202164421162000000006)")
                .contains("aws iam delete-policy --policy-arn"
                        + " arn:aws:iam::123456789012:policy/KarpenterIRSA-eks-cluster-20261202164421162000000006")
                .contains("meta.helm.sh/release-name=karpenter-crd");
        List<String> steps =
                console.stderr().lines().filter(l -> l.matches(" +\\d+\\. .*")).toList();
        assertThat(steps.get(0)).contains("Add the lines printed above");
        assertThat(steps.get(1)).contains("Old root").contains("the removed file");
        assertThat(steps.get(steps.size() - 1)).contains("bin/upgrade-path");
    }

    @Test
    void v20KeepsItsGeneratedRoleAndProfileNamesAndSaysNothingOfThePrefix() {
        assertThat(run("--state", STATES.resolve("v20.37.2-irsa.show.json").toString()))
                .isZero();

        assertThat(console.stdout())
                .contains("  controller_role = \"KarpenterController-20261202164504406800000003\"\n")
                .contains("queue_name = \"Karpenter-eks-twenty\"\n")
                .contains("    SpotInterrupt = \"KarpenterSpotInterrupt-20261202164504409800000006\"\n")
                .contains("  instance_profile = \"Karpenter-eks-twenty-20261202164504405400000002\"\n")
                .doesNotContain("irsa_use_name_prefix");
        assertThat(console.stdout().lines().filter(line -> line.contains(" = ") && !line.startsWith(" ")))
                .as("only settings off their defaults, so the lines can be appended to the seed's tfvars")
                .containsExactly("queue_name = \"Karpenter-eks-twenty\"", "adopt = {");
        assertThat(console.stderr())
                .contains("module.karpenter: terraform-aws-modules/eks//modules/karpenter v20.x")
                .contains("--removed FILE (run again with it)");
    }

    /** The v21 state is written by hand (the file says so): hashicorp/aws 6 is not in this machine's mirror. */
    @Test
    void v21WrittenByHandMapsPodIdentityTheCreatedNodeRoleTheReleaseAndThePools() throws IOException {
        assertThat(run("--state", STATES.resolve("v21-hand-written.state.json").toString(), "--removed", "removed.tf"))
                .isZero();

        assertThat(console.stdout()).isEqualTo("""
                # bin/adopt: cluster eks-twentyone, from v21-hand-written.state.json
                karpenter_namespace = "kube-system"
                controller_identity = "pod_identity"
                queue_name = "Karpenter-eks-twentyone"
                create_iam_role = true
                adopt = {
                  controller_role = "KarpenterController-20250101000000000000000001"
                  pod_identity_association = "eks-twentyone,a-abcdefghijklmnop1"
                  node_role = "Karpenter-eks-twentyone-20250101000000000000000006"
                  node_access_entry = "eks-twentyone:arn:aws:iam::123456789012:role/Karpenter-eks-twentyone-20250101000000000000000006"
                  queue = "https://sqs.eu-west-1.amazonaws.com/123456789012/Karpenter-eks-twentyone"
                  event_rules = {
                    Health = "KarpenterHealthEvent-20250101000000000000000005"
                    SpotInterrupt = "KarpenterSpotInterrupt-20250101000000000000000004"
                  }
                  helm_releases = ["kube-system/karpenter"]
                  chart_version = "1.6.0"
                  node_pool_objects = ["NodePool/default", "EC2NodeClass/default"]
                }
                """);
        assertThat(removedFroms(dir.resolve("removed.tf")))
                .contains(
                        "module.karpenter.aws_eks_pod_identity_association.karpenter",
                        "module.karpenter.aws_eks_access_entry.node",
                        "module.karpenter.aws_iam_role_policy_attachment.node",
                        "helm_release.karpenter",
                        "kubectl_manifest.node_pool",
                        "kubectl_manifest.node_class")
                .doesNotContain("module.karpenter.data.aws_partition.current");
        assertThat(console.stderr())
                .contains("module.karpenter: terraform-aws-modules/eks//modules/karpenter v21.x")
                .contains("kubectl label nodepools.karpenter.sh/default app.kubernetes.io/managed-by=Helm --overwrite")
                .contains("kubectl annotate ec2nodeclasses.karpenter.k8s.aws/default"
                        + " meta.helm.sh/release-name=karpenter-nodepools meta.helm.sh/release-namespace=kube-system"
                        + " --overwrite")
                .contains("karpenter_chart_version must be the running \"1.6.0\"")
                .contains("the Helm releases kube-system/karpenter are imported and upgraded in place");
    }

    /** v20's defaults: the role trusts EKS Pod Identity, whose association the module did not make. */
    @Test
    void aRoleTrustingPodIdentityKeepsPodIdentityAndSaysWhereItsAssociationIs() throws IOException {
        assertThat(run("--state", v20Trusting("pod.json", POD_IDENTITY_TRUST).toString()))
                .isZero();

        assertThat(console.stdout()).contains("controller_identity = \"pod_identity\"\n");
        assertThat(printedConfig("eks-twenty").iam().controllerIdentity()).isEqualTo(ControllerIdentity.POD_IDENTITY);
        assertThat(console.stderr())
                .contains("trusts EKS Pod Identity, but its association is not in pod.json: find it with aws eks"
                        + " list-pod-identity-associations --cluster-name eks-twenty and add"
                        + " pod_identity_association = \"eks-twenty,<associationId>\" to adopt");
    }

    @Test
    void anIrsaTrustOfAnotherServiceAccountKeepsItsNamespaceAndName() throws IOException {
        String trust = IRSA_TRUST.replace(
                "system:serviceaccount:karpenter:karpenter", "system:serviceaccount:kube-system:karpenter-controller");

        assertThat(run("--state", v20Trusting("irsa.json", trust).toString())).isZero();

        assertThat(console.stdout().lines().filter(line -> line.contains(" = ") && !line.startsWith(" ")))
                .containsExactly(
                        "karpenter_namespace = \"kube-system\"",
                        "queue_name = \"Karpenter-eks-twenty\"",
                        "karpenter_service_account = \"karpenter-controller\"",
                        "adopt = {");
        assertThat(console.stderr()).doesNotContain("controller_identity");
        ClusterConfig printed = printedConfig("eks-twenty");
        assertThat(printed.namespace()).isEqualTo("kube-system");
        assertThat(printed.serviceAccount()).isEqualTo("karpenter-controller");
        assertThat(printed.iam().controllerIdentity()).isEqualTo(ControllerIdentity.IRSA);
    }

    @Test
    void aRoleTrustingBothIdentitiesOrSeveralServiceAccountsIsACheckNotAGuess() throws IOException {
        String both = IRSA_TRUST.replace("}],\"Version\"", "}," + POD_IDENTITY_STATEMENT + "],\"Version\"");

        assertThat(run("--state", v20Trusting("both.json", both).toString())).isZero();

        assertThat(console.stdout()).doesNotContain("controller_identity").doesNotContain("karpenter_namespace");
        assertThat(console.stderr()).contains("trusts both IRSA and EKS Pod Identity, and the project's trusts one");
        console.reset();
        String two = IRSA_TRUST.replace(
                "\"system:serviceaccount:karpenter:karpenter\"",
                "[\"system:serviceaccount:karpenter:karpenter\",\"system:serviceaccount:kube-system:karpenter\"]");

        assertThat(run("--state", v20Trusting("two.json", two).toString())).isZero();

        assertThat(console.stdout()).doesNotContain("karpenter_namespace");
        assertThat(console.stderr())
                .contains("trusts the service accounts karpenter:karpenter, kube-system:karpenter, and the project's"
                        + " trusts one");
    }

    /** Upstream's own layout: the eks module, its node groups and the karpenter module in one root. */
    @Test
    void theEksModuleAndItsNodeGroupsInTheSameRootAreNotKarpenter() throws IOException {
        String neighbours = """
                {"module": "module.eks", "mode": "managed", "type": "aws_eks_cluster", "name": "this",
                 "instances": [{"index_key": 0, "attributes": {"id": "eks-twentyone", "name": "eks-twentyone"}}]},
                {"module": "module.eks", "mode": "managed", "type": "aws_iam_role", "name": "this",
                 "instances": [{"index_key": 0, "attributes": {"id": "eks-twentyone-cluster", "name": "eks-twentyone-cluster", "path": "/"}}]},
                {"module": "module.eks", "mode": "managed", "type": "aws_eks_access_entry", "name": "this",
                 "instances": [{"index_key": "admin", "attributes": {"cluster_name": "eks-twentyone", "principal_arn": "arn:aws:iam::123456789012:role/admin"}}]},
                {"module": "module.eks.module.eks_managed_node_group[\\"default\\"]", "mode": "managed", "type": "aws_iam_role", "name": "this",
                 "instances": [{"index_key": 0, "attributes": {"id": "default-eks-node-group", "name": "default-eks-node-group", "path": "/"}}]},
                {"module": "module.eks.module.eks_managed_node_group[\\"default\\"]", "mode": "managed", "type": "aws_eks_node_group", "name": "this",
                 "instances": [{"index_key": 0, "attributes": {"cluster_name": "eks-twentyone", "node_group_name": "default"}}]},
                {"module": "module.queue", "mode": "managed", "type": "aws_sqs_queue", "name": "this",
                 "instances": [{"attributes": {"id": "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", "name": "jobs"}}]},
                """;
        String state = Files.readString(STATES.resolve("v21-hand-written.state.json"))
                .replaceFirst(
                        "\"resources\": \\[",
                        "\"resources\": [" + java.util.regex.Matcher.quoteReplacement(neighbours));
        assertThat(state).contains("module.eks.module.eks_managed_node_group");
        assertThat(run("--state", STATES.resolve("v21-hand-written.state.json").toString()))
                .isZero();
        String alone = console.stdout();
        console.reset();

        assertThat(run("--state", write("upstream-layout.json", state).toString(), "--removed", "removed.tf"))
                .isZero();

        assertThat(console.stdout()).isEqualTo(alone.replace("v21-hand-written.state.json", "upstream-layout.json"));
        assertThat(removedFroms(dir.resolve("removed.tf")))
                .noneSatisfy(from -> assertThat(from).startsWith("module.eks"))
                .noneSatisfy(from -> assertThat(from).startsWith("module.queue"));
    }

    /** v20 given a node role (create_node_iam_role = false) still makes that role's access entry. */
    @Test
    void theAccessEntryOfAGivenNodeRoleStaysUnmanagedAndNoSecondIsMade() throws IOException {
        String nodeRole = "\"module\": \"module.karpenter\", \"mode\": \"managed\", \"type\": \"aws_iam_role\","
                + " \"name\": \"node\"";
        String v21 = Files.readString(STATES.resolve("v21-hand-written.state.json"));
        assertThat(v21).contains(nodeRole);
        String state = v21.replace(nodeRole, "\"mode\": \"managed\", \"type\": \"aws_iam_role\", \"name\": \"given\"");

        assertThat(run("--state", write("given-role.json", state).toString())).isZero();

        assertThat(console.stdout())
                .contains(
                        "iam_role_arn = \"arn:aws:iam::123456789012:role/Karpenter-eks-twentyone-20250101000000000000000006\"\n")
                .contains("iam_role_access_entry = false\n")
                .doesNotContain("node_access_entry")
                .doesNotContain("create_iam_role");
        assertThat(console.stderr())
                .contains("module.karpenter.aws_eks_access_entry.node[0]: the access entry of the"
                        + " node role the module was given; it stays in EKS, unmanaged");
        assertThat(printedConfig("eks-twentyone").iam().createNodeRole()).isFalse();
    }

    @Test
    void aStateWithoutKarpenterIsOneLineAndWritesNothing() throws IOException {
        Path state = write("other.json", """
                {"version": 4, "resources": [{"mode": "managed", "type": "aws_s3_bucket", "name": "logs",
                  "instances": [{"attributes": {"id": "logs"}}]}]}
                """);

        assertBadInput(
                state,
                "error: other.json: no Karpenter in this state: no resource of terraform-aws-modules' karpenter"
                        + " module (v19.x, v20.x, v21.x) and no helm_release of the karpenter chart");
    }

    @Test
    void twoClustersWithoutClusterIsOneLineAndWritesNothingAndClusterPicksOne() throws IOException {
        ObjectNode state = (ObjectNode) Json.read(STATES.resolve("v19.21.0-seed.show.json"));
        JsonNode twenty = Json.read(STATES.resolve("v20.37.2-irsa.show.json"));
        ObjectNode second = (ObjectNode) twenty.at("/values/root_module/child_modules/0");
        second.put("address", "module.karpenter_twenty");
        for (JsonNode resource : second.path("resources")) {
            ((ObjectNode) resource)
                    .put(
                            "address",
                            resource.path("address").asText().replace("module.karpenter.", "module.karpenter_twenty."));
        }
        ((ArrayNode) state.at("/values/root_module/child_modules")).add(second);
        Path both = write("both.json", state.toString());

        assertBadInput(
                both,
                "error: both.json: the state holds Karpenter of 2 clusters (eks-cluster, eks-twenty): name one with"
                        + " --cluster NAME");

        assertThat(run("--state", both.toString(), "--cluster", "eks-twenty", "--removed", "removed.tf"))
                .isZero();
        assertThat(console.stdout())
                .contains("queue_name = \"Karpenter-eks-twenty\"")
                .doesNotContain("eks-cluster\"");
        assertThat(removedFroms(dir.resolve("removed.tf")))
                .allSatisfy(from -> assertThat(from).startsWith("module.karpenter_twenty."));
    }

    @Test
    void aModuleOfAnUnknownVersionIsOneLineAndWritesNothing() throws IOException {
        String state = Files.readString(STATES.resolve("v21-hand-written.state.json"))
                .replace(
                        "\"type\": \"aws_iam_role\", \"name\": \"node\"",
                        "\"type\": \"aws_iam_role\", \"name\": \"this\"");

        assertBadInput(
                write("mixed.json", state),
                "error: mixed.json: module.karpenter is of no known version of terraform-aws-modules' karpenter module"
                        + " (v19.x, v20.x, v21.x): none declares aws_iam_role.controller");
    }

    @Test
    void aRoleAtAnotherPathCannotBeTakenOverAndSaysNoSettingGivesOne() throws IOException {
        String state = Files.readString(STATES.resolve("v21-hand-written.state.json"))
                .replace("\"name_prefix\": \"KarpenterController-\", \"path\": \"/\"", "\"path\": \"/eks/\"");

        assertBadInput(
                write("path.json", state),
                "error: path.json: module.karpenter.aws_iam_role.controller[0]: the controller role"
                        + " KarpenterController-20250101000000000000000001 has the path /eks/, which the project cannot"
                        + " take over: it makes IAM names at path / and no setting gives another path");
    }

    /** A describe-stack-resources document written by hand from upstream's v0.30.0 template (the file says so). */
    @Test
    void theGettingStartedCloudFormationStackKeepsItsNodeRoleProfileQueueAndRules() {
        assertThat(run(
                        "--cloudformation-stack",
                        STATES.resolve("cloudformation-v0.30.0-hand-written.json")
                                .toString()))
                .isZero();

        assertThat(console.stdout()).isEqualTo("""
                # bin/adopt: cluster eks-cluster, from cloudformation-v0.30.0-hand-written.json
                create_iam_role = true
                queue_name = "eks-cluster"
                adopt = {
                  node_role = "KarpenterNodeRole-eks-cluster"
                  instance_profile = "KarpenterNodeInstanceProfile-eks-cluster"
                  queue = "https://sqs.ap-southeast-1.amazonaws.com/123456789012/eks-cluster"
                  event_rules = {
                    Health = "Karpenter-eks-cluster-ScheduledChangeRule-1UYV1RIS2EXAMPLE"
                    Rebalance = "Karpenter-eks-cluster-RebalanceRule-9Z8Y7X6W5EXAMPLE"
                    SpotInterrupt = "Karpenter-eks-cluster-SpotInterruptionRule-1A2B3C4D5EXAMPLE"
                    StateChange = "Karpenter-eks-cluster-InstanceStateChangeRule-Q1W2E3R4EXAMPLE"
                  }
                }
                """);
        assertThat(console.stderr())
                .contains("CloudFormation stack Karpenter-eks-cluster")
                .contains("--query TemplateBody --output text > template.yaml")
                .contains("If Karpenter already runs from a Helm CLI install (helm list -A), run bin/adopt again"
                        + " with --helm-release NAMESPACE/karpenter")
                .doesNotContain("are imported")
                .contains("'DeletionPolicy: Retain'")
                .contains("aws cloudformation delete-stack --stack-name Karpenter-eks-cluster")
                .contains("aws iam delete-policy --policy-arn"
                        + " arn:aws:iam::123456789012:policy/KarpenterControllerPolicy-eks-cluster");
        console.reset();
        assertThat(run(
                        "--cloudformation-stack",
                        STATES.resolve("cloudformation-v0.30.0-hand-written.json")
                                .toString(),
                        "--removed",
                        "removed.tf"))
                .isEqualTo(2);
        assertThat(console.stderr()).startsWith("error: --removed writes removed blocks for a Terraform root;");
        assertThat(dir.resolve("removed.tf")).doesNotExist();
    }

    /** Upstream's getting-started guide installs the chart with the Helm CLI, into kube-system. */
    @Test
    void aHelmCliReleaseNamedOnTheCommandLineIsImportedInItsNamespace() {
        String stack =
                STATES.resolve("cloudformation-v0.30.0-hand-written.json").toString();

        assertThat(run("--cloudformation-stack", stack, "--helm-release", "kube-system/karpenter"))
                .isZero();

        assertThat(console.stdout())
                .startsWith("# bin/adopt: cluster eks-cluster, from cloudformation-v0.30.0-hand-written.json\n"
                        + "karpenter_namespace = \"kube-system\"\n")
                .contains("  helm_releases = [\"kube-system/karpenter\"]\n");
        assertThat(console.stderr())
                .contains("the Helm releases kube-system/karpenter are imported and upgraded in place")
                .contains("meta.helm.sh/release-namespace=kube-system")
                .contains("karpenter_chart_version must be the running version (helm list -n kube-system), and"
                        + " adopt.chart_version the same");

        for (String[] bad : List.of(
                new String[] {"--helm-release", "karpenter"},
                new String[] {"--helm-release", "kube-system/karpenter", "--helm-release", "karpenter/karpenter-crd"},
                new String[] {"--helm-release", "kube-system/karpenter", "--helm-release", "kube-system/karpenter"})) {
            console.reset();
            List<String> args = new java.util.ArrayList<>(List.of("--cloudformation-stack", stack));
            args.addAll(List.of(bad));
            assertThat(run(args.toArray(String[]::new)))
                    .as(String.join(" ", bad))
                    .isEqualTo(2);
            assertThat(console.stderr())
                    .as(String.join(" ", bad))
                    .startsWith("error: --helm-release ")
                    .hasLineCount(1);
            assertThat(console.stdout()).isEmpty();
        }
    }

    @Test
    void aStackWhoseClusterCannotBeToldIsOneLine() throws IOException {
        JsonNode stack = Json.read(STATES.resolve("cloudformation-v0.30.0-hand-written.json"));
        ArrayNode kept = Json.mapper().createArrayNode();
        for (JsonNode resource : stack.path("StackResources")) {
            if (resource.path("LogicalResourceId").asText().equals("KarpenterNodeRole")) {
                kept.add(((ObjectNode) resource.deepCopy()).put("PhysicalResourceId", "custom-node-role"));
            } else if (!resource.path("LogicalResourceId").asText().equals("KarpenterInterruptionQueue")) {
                kept.add(resource);
            }
        }
        Path file = write(
                "custom.json",
                Json.mapper().createObjectNode().set("StackResources", kept).toString());

        assertThat(run("--cloudformation-stack", file.toString())).isEqualTo(2);

        assertThat(console.stderr())
                .isEqualTo("error: custom.json: stack Karpenter-eks-cluster names its node role custom-node-role, not"
                        + " KarpenterNodeRole-CLUSTER, and has no queue, so its cluster is unknown: name it with"
                        + " --cluster NAME\n");
        assertThat(run("--cloudformation-stack", file.toString(), "--cluster", "eks-cluster"))
                .isZero();
    }

    @Test
    void aStateWithItsOwnReleaseRefusesAHelmCliReleaseAndAnExistingRemovedFileIsKept() throws IOException {
        String v21 = STATES.resolve("v21-hand-written.state.json").toString();
        assertThat(run("--state", v21, "--helm-release", "kube-system/karpenter"))
                .isEqualTo(2);
        assertThat(console.stderr())
                .isEqualTo("error: --helm-release: v21-hand-written.state.json already holds the Helm releases"
                        + " kube-system/karpenter; leave the option out\n");
        console.reset();
        Path removed = write("removed.tf", "# cluster a's blocks\n");

        assertThat(run("--state", v21, "--removed", "removed.tf")).isEqualTo(2);

        assertThat(console.stderr())
                .isEqualTo("error: --removed \"removed.tf\" exists: name a new file (each run writes the removed"
                        + " blocks of one cluster)\n");
        assertThat(console.stdout()).isEmpty();
        assertThat(Files.readString(removed)).isEqualTo("# cluster a's blocks\n");
    }

    @Test
    void aModuleCalledWithCountIsForgottenWithoutItsInstanceKey() throws IOException {
        String state = Files.readString(STATES.resolve("v21-hand-written.state.json"))
                .replace("\"module\": \"module.karpenter\"", "\"module\": \"module.karpenter[0]\"");

        assertThat(run("--state", write("counted.json", state).toString(), "--removed", "removed.tf"))
                .isZero();

        assertThat(removedFroms(dir.resolve("removed.tf")))
                .contains("module.karpenter.aws_iam_role.controller")
                .noneSatisfy(from -> assertThat(from).contains("["));
        assertThat(console.stderr())
                .contains("module.karpenter[0]: terraform-aws-modules/eks//modules/karpenter v21.x");
    }

    @Test
    void helpPrintsTheUsage() {
        assertThat(run("--help")).isZero();
        assertThat(console.stdout()).startsWith(AdoptCommand.USAGE + "\n").contains("--removed FILE");
    }

    private static final String IRSA_TRUST = "{\"Statement\":[{\"Action\":\"sts:AssumeRoleWithWebIdentity\","
            + "\"Condition\":{\"StringEquals\":{\"oidc.eks.us-east-1.amazonaws.com/id/ABCDEF:aud\":\"sts.amazonaws.com\","
            + "\"oidc.eks.us-east-1.amazonaws.com/id/ABCDEF:sub\":\"system:serviceaccount:karpenter:karpenter\"}},"
            + "\"Effect\":\"Allow\",\"Principal\":{\"Federated\":\"arn:aws:iam::123456789012:oidc-provider/"
            + "oidc.eks.us-east-1.amazonaws.com/id/ABCDEF\"}}],\"Version\":\"2012-10-17\"}";
    /** The statement terraform-aws-modules' karpenter module writes for EKS Pod Identity (v20 and v21). */
    private static final String POD_IDENTITY_STATEMENT = "{\"Action\":[\"sts:TagSession\",\"sts:AssumeRole\"],"
            + "\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"pods.eks.amazonaws.com\"},\"Sid\":\"PodIdentity\"}";

    private static final String POD_IDENTITY_TRUST =
            "{\"Statement\":[" + POD_IDENTITY_STATEMENT + "],\"Version\":\"2012-10-17\"}";

    /** What bin/adopt printed, under the required settings of {@code cluster} at the newest release: it must load. */
    private ClusterConfig printedConfig(String cluster) {
        return TestConfigs.configFor(cluster, "us-east-1", TestConfigs.V1, console.stdout());
    }

    /**
     * The recorded v20 state, its controller role trusting {@code trust} instead, without the instance profile (the
     * module's default, create_instance_profile = false; the project makes none for 1.x).
     */
    private Path v20Trusting(String name, String trust) throws IOException {
        ObjectNode state = (ObjectNode) Json.read(STATES.resolve("v20.37.2-irsa.show.json"));
        int changed = 0;
        ArrayNode resources = (ArrayNode) state.at("/values/root_module/child_modules/0/resources");
        for (int i = resources.size() - 1; i >= 0; i--) {
            if (resources.get(i).path("type").asText().equals("aws_iam_instance_profile")) {
                resources.remove(i);
            }
        }
        for (JsonNode resource : resources) {
            if (resource.path("address").asText().startsWith("module.karpenter.aws_iam_role.controller")) {
                assertThat(resource.path("values").path("assume_role_policy").asText())
                        .isEqualTo(IRSA_TRUST);
                ((ObjectNode) resource.path("values")).put("assume_role_policy", trust);
                changed++;
            }
        }
        assertThat(changed).isEqualTo(1);
        return write(name, state.toString());
    }

    private void assertBadInput(Path state, String line) {
        console.reset();
        assertThat(run("--state", state.toString(), "--removed", "removed.tf")).isEqualTo(2);
        assertThat(console.stderr()).isEqualTo(line + "\n");
        assertThat(console.stdout()).isEmpty();
        assertThat(dir.resolve("removed.tf")).doesNotExist();
        console.reset();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static List<String> removedFroms(Path file) throws IOException {
        return Files.readString(file)
                .lines()
                .filter(line -> line.startsWith("  from = "))
                .map(line -> line.substring("  from = ".length()))
                .toList();
    }

    private static Path resource(String name) {
        try {
            return Path.of(Objects.requireNonNull(
                            AdoptCommandTest.class.getClassLoader().getResource(name))
                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
