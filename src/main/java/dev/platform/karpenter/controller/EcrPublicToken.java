package dev.platform.karpenter.controller;

import imports.aws.data_aws_ecrpublic_authorization_token.DataAwsEcrpublicAuthorizationToken;
import imports.aws.data_aws_ecrpublic_authorization_token.DataAwsEcrpublicAuthorizationTokenConfig;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import software.constructs.Construct;

/**
 * A pull token for oci://public.ecr.aws, read through an AWS provider pinned to us-east-1: the ECR Public API
 * exists only there, and a provider in the cluster's region fails with "no such host". The token is only ever
 * referenced ({@code data.aws_ecrpublic_authorization_token.ecr_public.password}), so its value reaches the plan
 * but never the synthesized configuration or an output.
 */
public final class EcrPublicToken extends Construct {
    public static final String REGION = "us-east-1";
    public static final String PROVIDER_ALIAS = "us_east_1";

    private final DataAwsEcrpublicAuthorizationToken token;

    public EcrPublicToken(Construct scope, String id) {
        super(scope, id);
        AwsProvider usEast1 = new AwsProvider(this, "us-east-1", AwsProviderConfig.builder()
                .alias(PROVIDER_ALIAS)
                .region(REGION)
                .build());
        token = new DataAwsEcrpublicAuthorizationToken(this, "token", DataAwsEcrpublicAuthorizationTokenConfig.builder()
                .provider(usEast1)
                .build());
        token.overrideLogicalId("ecr_public");
    }

    public String userName() {
        return token.getUserName();
    }

    public String password() {
        return token.getPassword();
    }
}
