package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ControllerIdentity;
import imports.aws.data_aws_iam_openid_connect_provider.DataAwsIamOpenidConnectProvider;
import imports.aws.data_aws_iam_openid_connect_provider.DataAwsIamOpenidConnectProviderConfig;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocument;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentConfig;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatement;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatementCondition;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatementPrincipals;
import imports.aws.eks_pod_identity_association.EksPodIdentityAssociation;
import imports.aws.eks_pod_identity_association.EksPodIdentityAssociationConfig;
import imports.aws.iam_role.IamRole;
import imports.aws.iam_role.IamRoleConfig;
import java.util.List;
import software.constructs.Construct;

/**
 * The role the Karpenter controller's pods assume, through IRSA (trusting the cluster's OIDC provider for exactly
 * the controller's service account) or EKS Pod Identity (trusting the Pod Identity agent, bound to the service
 * account by an association).
 */
public class ControllerRole extends Construct {
    private final IamRole role;

    public ControllerRole(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        super(scope, id);
        DataAwsIamPolicyDocumentStatement trust = config.iam().controllerIdentity() == ControllerIdentity.IRSA
                ? irsaTrust(config, facts)
                : podIdentityTrust();
        DataAwsIamPolicyDocument trustPolicy = new DataAwsIamPolicyDocument(this, "trust",
                DataAwsIamPolicyDocumentConfig.builder().statement(List.of(trust)).build());
        IamRoleConfig.Builder roleConfig = IamRoleConfig.builder()
                .description("Karpenter controller of cluster " + config.clusterName())
                .assumeRolePolicy(trustPolicy.getJson());
        if (config.iam().useNamePrefix()) {
            roleConfig.namePrefix(config.names().controllerRolePrefix());
        } else {
            roleConfig.name(config.names().controllerRole());
        }
        role = new IamRole(this, "role", roleConfig.build());
        if (config.iam().controllerIdentity() == ControllerIdentity.POD_IDENTITY) {
            new EksPodIdentityAssociation(this, "pod-identity", EksPodIdentityAssociationConfig.builder()
                    .clusterName(facts.clusterName())
                    .namespace(config.namespace())
                    .serviceAccount(config.serviceAccount())
                    .roleArn(role.getArn())
                    .build());
        }
    }

    private DataAwsIamPolicyDocumentStatement irsaTrust(ClusterConfig config, ClusterFacts facts) {
        DataAwsIamOpenidConnectProvider oidc = new DataAwsIamOpenidConnectProvider(this, "oidc-provider",
                DataAwsIamOpenidConnectProviderConfig.builder().url(facts.oidcIssuerUrl()).build());
        String issuer = facts.oidcIssuerHostPath();
        return DataAwsIamPolicyDocumentStatement.builder()
                .actions(List.of("sts:AssumeRoleWithWebIdentity"))
                .principals(List.of(DataAwsIamPolicyDocumentStatementPrincipals.builder()
                        .type("Federated")
                        .identifiers(List.of(oidc.getArn()))
                        .build()))
                .condition(List.of(
                        stringEquals(issuer + ":sub", "system:serviceaccount:" + config.namespace() + ":" + config.serviceAccount()),
                        stringEquals(issuer + ":aud", "sts.amazonaws.com")))
                .build();
    }

    private static DataAwsIamPolicyDocumentStatement podIdentityTrust() {
        return DataAwsIamPolicyDocumentStatement.builder()
                .actions(List.of("sts:AssumeRole", "sts:TagSession"))
                .principals(List.of(DataAwsIamPolicyDocumentStatementPrincipals.builder()
                        .type("Service")
                        .identifiers(List.of("pods.eks.amazonaws.com"))
                        .build()))
                .build();
    }

    private static DataAwsIamPolicyDocumentStatementCondition stringEquals(String variable, String value) {
        return DataAwsIamPolicyDocumentStatementCondition.builder()
                .test("StringEquals")
                .variable(variable)
                .values(List.of(value))
                .build();
    }

    public String arn() {
        return role.getArn();
    }

    public String name() {
        return role.getName();
    }
}
