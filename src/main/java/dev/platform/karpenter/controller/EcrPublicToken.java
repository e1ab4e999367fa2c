package dev.platform.karpenter.controller;

import imports.aws.data_aws_ecrpublic_authorization_token.DataAwsEcrpublicAuthorizationToken;
import imports.aws.data_aws_ecrpublic_authorization_token.DataAwsEcrpublicAuthorizationTokenConfig;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import software.constructs.Construct;

/**
 * A pull token for oci://public.ecr.aws (chart_repository's default), read through an AWS provider pinned to us-east-1: the ECR Public API
 * exists only there, and a provider in the cluster's region fails with "no such host". The token is only ever
 * referenced ({@code data.aws_ecrpublic_authorization_token.ecr_public.password}), so its value reaches the plan
 * but never the synthesized configuration or an output.
 *
 * <p>The token lives 12 hours. Releases ignore changes to their repository_password so a plan stays clean, which
 * also means an upgrade days later would present the stale password stored in state; the helm provider therefore
 * logs in to the registry itself with the token of the current run ({@link RegistryToken#helmRegistryLogin()}), and the
 * provider logs in once per registry host, before any release does.
 */
public final class EcrPublicToken {
    public static final String REGION = "us-east-1";
    public static final String PROVIDER_ALIAS = "us_east_1";
    public static final String REGISTRY = "oci://public.ecr.aws";

    private EcrPublicToken() {}

    /** The token, read in a construct {@code id} of its own (with the us-east-1 provider). */
    static RegistryToken read(Construct scope, String id) {
        Construct reader = new Construct(scope, id);
        AwsProvider usEast1 = new AwsProvider(
                reader,
                "us-east-1",
                AwsProviderConfig.builder().alias(PROVIDER_ALIAS).region(REGION).build());
        DataAwsEcrpublicAuthorizationToken token = new DataAwsEcrpublicAuthorizationToken(
                reader,
                "token",
                DataAwsEcrpublicAuthorizationTokenConfig.builder()
                        .provider(usEast1)
                        .build());
        token.overrideLogicalId("ecr_public");
        return new RegistryToken(REGISTRY, token.getUserName(), token.getPassword());
    }
}
