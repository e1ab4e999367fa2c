package dev.platform.karpenter.controller;

import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.aws.ClusterAccess;
import dev.platform.karpenter.aws.CrossStackReferences;
import dev.platform.karpenter.config.ChartRepository;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import java.util.List;
import java.util.Optional;
import software.constructs.Construct;

/**
 * {@code <cluster>-karpenter}: the pull token of the charts' registry (ECR Public's, a private ECR registry's, or none
 * for another registry) and the Karpenter CRD and controller Helm releases.
 */
public class ControllerStack extends TerraformStack {
    /** The stack is named {@code <cluster_name>-karpenter}. */
    public static final String CONCERN = "karpenter";

    /** The references to the IAM and interruption stacks this stack holds. */
    private final List<String> readFromOtherStacks;

    public ControllerStack(Construct scope, ClusterConfig config, IamStack iam, InterruptionStack interruption) {
        super(scope, config.stackName(CONCERN));
        AwsProviders.regional(this, config);
        addDependency(iam);
        addDependency(interruption);
        ClusterAccess clusterAccess = new ClusterAccess(this, "cluster-access", config);
        ControllerValues values = ControllerValues.of(
                config,
                clusterAccess.endpoint(),
                iam.controllerRoleArn(),
                iam.instanceProfileName(),
                interruption.queueName());
        String valuesYaml = values.toYaml();
        readFromOtherStacks = CrossStackReferences.heldIn(
                List.of(iam.controllerRoleArn(), iam.instanceProfileName(), interruption.queueName()), valuesYaml);
        ChartRepository repository = config.controller().chartRepository();
        Optional<RegistryToken> token = switch (repository.registry()) {
            case ECR_PUBLIC -> Optional.of(EcrPublicToken.read(this, "ecr-public"));
            case ECR -> Optional.of(EcrToken.read(this, "ecr", repository, config.region()));
            case OTHER -> Optional.empty();
        };
        token.ifPresent(t -> clusterAccess.helm().setRegistry(List.of(t.helmRegistryLogin())));
        new KarpenterCharts(this, "charts", config, token, valuesYaml);
    }

    /** Resolves just this stack's references to other stacks: see {@link CrossStackReferences}. */
    @Override
    public void prepareStack() {
        CrossStackReferences.prepare(this, readFromOtherStacks);
    }
}
