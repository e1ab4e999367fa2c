package dev.platform.karpenter.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.Json;
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
                .contains("karpenter_namespace must be \"kube-system\"");
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
