package dev.platform.karpenter.aws;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderDefaultTags;
import java.util.List;
import software.constructs.Construct;

/** The AWS provider every stack of a cluster uses: the cluster's region, with the configured tags as default tags. */
public final class AwsProviders {
    private AwsProviders() {}

    public static AwsProvider regional(Construct scope, ClusterConfig config) {
        return new AwsProvider(
                scope,
                "aws",
                imports.aws.provider.AwsProviderConfig.builder()
                        .region(config.region())
                        .defaultTags(
                                config.tags().isEmpty()
                                        ? null
                                        : List.of(AwsProviderDefaultTags.builder()
                                                .tags(TerraformStrings.literal(config.tags()))
                                                .build()))
                        .build());
    }
}
