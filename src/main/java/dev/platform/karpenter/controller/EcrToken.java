package dev.platform.karpenter.controller;

import dev.platform.karpenter.config.ChartRepository;
import imports.aws.data_aws_ecr_authorization_token.DataAwsEcrAuthorizationToken;
import imports.aws.data_aws_ecr_authorization_token.DataAwsEcrAuthorizationTokenConfig;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import imports.helm.provider.HelmProviderRegistry;
import software.constructs.Construct;

/**
 * A pull token for a private ECR registry ({@code <account>.dkr.ecr.<region>.amazonaws.com}, such as a pull-through
 * cache of ECR Public): that registry's own authorization token, for its account, read in its region (through a
 * provider of that region when it is not the cluster's). ECR Public is not asked at all. The token lives 12 hours,
 * handled as {@link EcrPublicToken}'s is.
 */
final class EcrToken extends Construct implements RegistryToken {
    /** The alias of the provider in the registry's region, when that differs from the cluster's. */
    static final String PROVIDER_ALIAS = "chart_registry";

    private final String registryUrl;
    private final String userName;
    private final String password;

    EcrToken(Construct scope, String id, ChartRepository repository, String clusterRegion) {
        super(scope, id);
        String region = repository.ecrRegion().orElseThrow();
        DataAwsEcrAuthorizationTokenConfig.Builder config = DataAwsEcrAuthorizationTokenConfig.builder()
                .registryId(repository.ecrAccount().orElseThrow());
        if (!region.equals(clusterRegion)) {
            config.provider(new AwsProvider(
                    this,
                    "provider",
                    AwsProviderConfig.builder()
                            .alias(PROVIDER_ALIAS)
                            .region(region)
                            .build()));
        }
        DataAwsEcrAuthorizationToken token = new DataAwsEcrAuthorizationToken(this, "token", config.build());
        token.overrideLogicalId("chart_registry");
        registryUrl = repository.registryUrl();
        userName = token.getUserName();
        password = token.getPassword();
    }

    @Override
    public HelmProviderRegistry helmRegistryLogin() {
        return HelmProviderRegistry.builder()
                .url(registryUrl)
                .username(userName)
                .password(password)
                .build();
    }

    @Override
    public String userName() {
        return userName;
    }

    @Override
    public String password() {
        return password;
    }
}
