package dev.platform.karpenter.controller;

import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.aws.ClusterAccess;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.aws.CrossStackReferences;
import dev.platform.karpenter.config.ChartRepository;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import software.constructs.Construct;

/**
 * {@code <cluster>-karpenter}: the pull token of the charts' registry (ECR Public's, a private ECR registry's, or none
 * for another registry) and the Karpenter CRD and controller Helm releases.
 */
public class ControllerStack extends ClusterStack {
    /** The stack is named {@code <cluster_name>-karpenter}. */
    public static final String CONCERN = "karpenter";

    /** The references to the IAM and interruption stacks this stack holds. */
    private final List<String> readFromOtherStacks;

    /** {@code beside} writes the controller's values meanwhile: they touch no cdktf object. */
    public ControllerStack(
            Construct scope, ClusterConfig config, IamStack iam, InterruptionStack interruption, Executor beside) {
        super(scope, config.stackName(CONCERN));
        AwsProviders.regional(this, config);
        addDependency(iam);
        addDependency(interruption);
        ClusterAccess clusterAccess = new ClusterAccess(this, "cluster-access", config);
        List<String> fromOtherStacks =
                List.of(iam.controllerRoleArn(), iam.instanceProfileName(), interruption.queueName());
        String endpoint = clusterAccess.endpoint();
        // Written on another thread while the registry token is read.
        CompletableFuture<String> values = CompletableFuture.supplyAsync(
                () -> ControllerValues.of(
                                config,
                                endpoint,
                                fromOtherStacks.get(0),
                                fromOtherStacks.get(1),
                                fromOtherStacks.get(2))
                        .toYaml(),
                beside);
        ChartRepository repository = config.controller().chartRepository();
        Optional<RegistryToken> token = switch (repository.registry()) {
            case ECR_PUBLIC -> Optional.of(EcrPublicToken.read(this, "ecr-public"));
            case ECR -> Optional.of(EcrToken.read(this, "ecr", repository, config.region()));
            case OTHER -> Optional.empty();
        };
        token.ifPresent(t -> clusterAccess.helm().setRegistry(List.of(t.helmRegistryLogin())));
        String valuesYaml;
        try {
            valuesYaml = values.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        readFromOtherStacks = CrossStackReferences.heldIn(fromOtherStacks, valuesYaml);
        new KarpenterCharts(this, "charts", config, token, valuesYaml);
    }

    @Override
    protected List<String> readFromOtherStacks() {
        return readFromOtherStacks;
    }
}
