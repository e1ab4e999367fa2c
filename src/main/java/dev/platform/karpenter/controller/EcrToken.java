package dev.platform.karpenter.controller;

import dev.platform.karpenter.config.ChartRepository;
import imports.aws.data_aws_ecr_authorization_token.DataAwsEcrAuthorizationToken;
import imports.aws.data_aws_ecr_authorization_token.DataAwsEcrAuthorizationTokenConfig;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import software.constructs.Construct;

/**
 * A pull token for a private ECR registry ({@code <account>.dkr.ecr.<region>.amazonaws.com}, such as a pull-through
 * cache of ECR Public): that registry's own authorization token, for its account, read in its region (through a
 * provider of that region when it is not the cluster's). ECR Public is not asked at all. The token lives 12 hours,
 * handled as {@link EcrPublicToken}'s is.
 */
final class EcrToken {
    /** The alias of the provider in the registry's region, when that differs from the cluster's. */
    static final String PROVIDER_ALIAS = "chart_registry";

    private EcrToken() {}

    /** The token, read in a construct {@code id} of its own (with the provider it needs). */
    static RegistryToken read(Construct scope, String id, ChartRepository repository, String clusterRegion) {
        Construct reader = new Construct(scope, id);
        String region = repository.ecrRegion().orElseThrow();
        DataAwsEcrAuthorizationTokenConfig.Builder config = DataAwsEcrAuthorizationTokenConfig.builder()
                .registryId(repository.ecrAccount().orElseThrow());
        if (!region.equals(clusterRegion)) {
            config.provider(new AwsProvider(
                    reader,
                    "provider",
                    AwsProviderConfig.builder()
                            .alias(PROVIDER_ALIAS)
                            .region(region)
                            .build()));
        }
        DataAwsEcrAuthorizationToken token = new DataAwsEcrAuthorizationToken(reader, "token", config.build());
        token.overrideLogicalId("chart_registry");
        return new RegistryToken(repository.registryUrl(), token.getUserName(), token.getPassword());
    }
}
