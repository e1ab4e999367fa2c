package dev.platform.karpenter.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import dev.platform.karpenter.policy.IamPolicyDocument;
import imports.aws.iam_instance_profile.IamInstanceProfile;
import imports.aws.iam_instance_profile.IamInstanceProfileConfig;
import imports.aws.iam_role.IamRole;
import imports.aws.iam_role.IamRoleConfig;
import imports.aws.sqs_queue.SqsQueue;
import imports.aws.sqs_queue.SqsQueueConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.constructs.Construct;

/**
 * The controller stack synthesized against IAM and interruption stacks whose accessors return attributes of real
 * resources, so the tests see the cross-stack references (terraform_remote_state) the app produces, whatever the
 * production stacks' resources are called.
 */
final class ProducerStacks {
    private static final Pattern REMOTE_OUTPUT =
            Pattern.compile("\\$\\{data\\.terraform_remote_state\\.([^.]+)\\.outputs\\.([^}]+)}");

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    private ProducerStacks(Path dir) {
        this.dir = dir;
    }

    static ProducerStacks synthesize(ClusterConfig config) {
        try {
            Path dir = Files.createTempDirectory("karpenter-controller-synth-");
            App app = new App(AppConfig.builder().outdir(dir.toString()).build());
            new ControllerStack(app, config, new ProducingIamStack(app, config), new ProducingInterruptionStack(app, config));
            app.synth();
            return new ProducerStacks(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parsed cdk.tf.json of one stack. */
    JsonNode stack(String name) {
        try {
            return JSON.readTree(dir.resolve("stacks").resolve(name).resolve("cdk.tf.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The producer-side expression a consumer's {@code ${data.terraform_remote_state.X.outputs.Y}} reads: the
     * value of output Y in the stack that remote state X points at.
     */
    String producedExpression(JsonNode consumer, String consumerExpression) {
        Matcher m = REMOTE_OUTPUT.matcher(consumerExpression);
        if (!m.matches()) {
            throw new AssertionError("not a cross-stack reference: " + consumerExpression);
        }
        String statePath = consumer.path("data").path("terraform_remote_state").path(m.group(1)).path("config").path("path").asText();
        String producer = Path.of(statePath).getFileName().toString().replaceFirst("^terraform\\.", "").replaceFirst("\\.tfstate$", "");
        return stack(producer).path("output").path(m.group(2)).path("value").asText();
    }

    static final class ProducingIamStack extends IamStack {
        private final IamRole controllerRole;
        private final IamInstanceProfile instanceProfile;

        ProducingIamStack(Construct scope, ClusterConfig config) {
            super(scope, config);
            IamPolicyDocument trust = IamPolicyDocument.of(IamPolicyDocument.Statement.of("", IamPolicyDocument.Effect.Allow,
                            List.of("sts:AssumeRole"), List.of(), List.of())
                    .withPrincipal(IamPolicyDocument.Principal.service("ec2.amazonaws.com")));
            controllerRole = new IamRole(this, "test-controller-role", IamRoleConfig.builder()
                    .name("test-controller").assumeRolePolicy(trust.toJson()).build());
            instanceProfile = new IamInstanceProfile(this, "test-instance-profile", IamInstanceProfileConfig.builder()
                    .name("test-profile").role(controllerRole.getName()).build());
        }

        @Override
        public String controllerRoleArn() {
            return controllerRole.getArn();
        }

        @Override
        public String instanceProfileName() {
            return instanceProfile.getName();
        }
    }

    static final class ProducingInterruptionStack extends InterruptionStack {
        private final SqsQueue queue;

        ProducingInterruptionStack(Construct scope, ClusterConfig config) {
            super(scope, config);
            queue = new SqsQueue(this, "test-queue", SqsQueueConfig.builder().name("test-queue").build());
        }

        @Override
        public String queueName() {
            return queue.getName();
        }
    }
}
