package dev.platform.karpenter.iam;

import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEquals;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ControllerIdentity;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.policy.IamPolicyDocument;
import dev.platform.karpenter.policy.IamPolicyDocument.Effect;
import dev.platform.karpenter.policy.IamPolicyDocument.Principal;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import imports.aws.data_aws_iam_openid_connect_provider.DataAwsIamOpenidConnectProvider;
import imports.aws.data_aws_iam_openid_connect_provider.DataAwsIamOpenidConnectProviderConfig;
import imports.aws.eks_pod_identity_association.EksPodIdentityAssociation;
import imports.aws.eks_pod_identity_association.EksPodIdentityAssociationConfig;
import imports.aws.iam_role.IamRole;
import imports.aws.iam_role.IamRoleConfig;
import java.util.List;
import java.util.Optional;
import software.constructs.Construct;

/**
 * The role the Karpenter controller's pods assume, through IRSA (trusting the cluster's OIDC provider for exactly
 * the controller's service account) or EKS Pod Identity (trusting the Pod Identity agent, bound to the service
 * account by an association).
 */
public class ControllerRole extends Construct {
    private final String arn;
    private final String name;

    public ControllerRole(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        super(scope, id);
        Statement trust = config.iam().controllerIdentity() == ControllerIdentity.IRSA
                ? irsaTrust(config, facts)
                : podIdentityTrust();
        IamRoleConfig.Builder roleConfig = IamRoleConfig.builder()
                .description("Karpenter controller of cluster " + config.clusterName())
                .assumeRolePolicy(IamPolicyDocument.of(trust).toJson());
        Optional<String> adopted = config.adoption().controllerRole().map(TerraformStrings::literal);
        if (adopted.isPresent()) {
            // An adopted role keeps its name: a new one would replace the role the running controller assumes.
            roleConfig.name(adopted.get());
        } else if (config.iam().useNamePrefix()) {
            roleConfig.namePrefix(config.names().controllerRolePrefix());
        } else {
            roleConfig.name(config.names().controllerRole());
        }
        IamRole role = new IamRole(this, "role", roleConfig.build());
        adopted.ifPresent(role::importFrom);
        arn = role.getArn();
        name = role.getName();
        if (config.iam().controllerIdentity() == ControllerIdentity.POD_IDENTITY) {
            EksPodIdentityAssociation association = new EksPodIdentityAssociation(
                    this,
                    "pod-identity",
                    EksPodIdentityAssociationConfig.builder()
                            .clusterName(facts.clusterName())
                            .namespace(config.namespace())
                            .serviceAccount(config.serviceAccount())
                            .roleArn(arn)
                            .build());
            config.adoption()
                    .podIdentityAssociation()
                    .map(TerraformStrings::literal)
                    .ifPresent(association::importFrom);
        }
    }

    private Statement irsaTrust(ClusterConfig config, ClusterFacts facts) {
        DataAwsIamOpenidConnectProviderConfig byIssuer = DataAwsIamOpenidConnectProviderConfig.builder()
                .url(facts.oidcIssuerUrl())
                .build();
        DataAwsIamOpenidConnectProvider oidc = new DataAwsIamOpenidConnectProvider(this, "oidc-provider", byIssuer);
        String issuer = facts.oidcIssuerHostPath();
        return Statement.of(
                        "",
                        Effect.Allow,
                        List.of("sts:AssumeRoleWithWebIdentity"),
                        List.of(),
                        List.of(
                                stringEquals(
                                        issuer + ":sub",
                                        "system:serviceaccount:" + config.namespace() + ":" + config.serviceAccount()),
                                stringEquals(issuer + ":aud", "sts.amazonaws.com")))
                .withPrincipal(Principal.federated(oidc.getArn()));
    }

    private static Statement podIdentityTrust() {
        return Statement.of("", Effect.Allow, List.of("sts:AssumeRole", "sts:TagSession"), List.of(), List.of())
                .withPrincipal(Principal.service("pods.eks.amazonaws.com"));
    }

    public String arn() {
        return arn;
    }

    public String name() {
        return name;
    }
}
