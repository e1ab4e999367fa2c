package dev.platform.karpenter.config;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * chart_repository: the OCI repository both Karpenter charts (karpenter-crd and karpenter) are installed from, and
 * how to log in to its registry.
 *
 * @param url        the repository, e.g. oci://public.ecr.aws/karpenter
 * @param registry   which kind of registry serves it
 * @param host       the registry's host (and port), e.g. public.ecr.aws
 * @param ecrAccount for a private ECR registry, the account that owns it (its registry id)
 * @param ecrRegion  for a private ECR registry, its region
 */
public record ChartRepository(
        String url, Registry registry, String host, Optional<String> ecrAccount, Optional<String> ecrRegion) {

    /** The kinds of registry, by how a pull token is had. */
    public enum Registry {
        /**
         * public.ecr.aws from the aws partition: a token from the ECR Public API, which exists only in us-east-1
         * (from another partition, whose credentials cannot reach it, public.ecr.aws is pulled anonymously: OTHER).
         */
        ECR_PUBLIC,
        /** {@code <account>.dkr.ecr.<region>.<dns suffix>}: a token from that registry's ECR API. */
        ECR,
        /** Any other: no token; the registry is public, or Helm is logged in to it already. */
        OTHER
    }

    private static final String KEY = SettingsCatalogue.CHART_REPOSITORY.key();
    public static final String ECR_PUBLIC_HOST = "public.ecr.aws";
    /** The partition of the ECR Public API's one region, us-east-1. */
    private static final String ECR_PUBLIC_PARTITION = "aws";

    /**
     * oci://HOST[:PORT]/PATH: a DNS host name and repository path components as the OCI distribution spec allows
     * them (lowercase letters and digits, separated by '.', '_', '__' or dashes).
     */
    private static final Pattern OCI_REPOSITORY = Pattern.compile("oci://((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)*"
            + "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\\d{1,5})?)((?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+)");

    private static final Pattern ECR_HOST = Pattern.compile("(\\d{12})\\.dkr\\.ecr(?:-fips)?\\.([a-z0-9-]+)\\.(.+)");
    private static final int MAX_LENGTH = 255;

    static ChartRepository from(SettingsReader settings, String clusterRegion) {
        String url = settings.get(SettingsCatalogue.CHART_REPOSITORY);
        Matcher oci = OCI_REPOSITORY.matcher(url);
        ConfigException.require(
                url.length() <= MAX_LENGTH && oci.matches(),
                KEY,
                "must be an OCI repository such as \"oci://public.ecr.aws/karpenter\" or \"oci://123456789012.dkr"
                        + ".ecr.us-west-2.amazonaws.com/ecr-public/karpenter\" (lowercase, no trailing '/')",
                url);
        String host = oci.group(1);
        if (host.equals(ECR_PUBLIC_HOST)) {
            Registry registry = Regions.partition(clusterRegion).equals(ECR_PUBLIC_PARTITION)
                    ? Registry.ECR_PUBLIC
                    : Registry.OTHER;
            return new ChartRepository(url, registry, host, Optional.empty(), Optional.empty());
        }
        Matcher ecr = ECR_HOST.matcher(host);
        if (!ecr.matches()) {
            return new ChartRepository(url, Registry.OTHER, host, Optional.empty(), Optional.empty());
        }
        String region = ecr.group(2);
        Regions.requireValid(KEY + "'s ECR region", region);
        ConfigException.require(
                ecr.group(3).equals(Regions.dnsSuffix(region)),
                KEY,
                "names an ECR registry in " + region + ", whose host ends in ." + Regions.dnsSuffix(region),
                url);
        ConfigException.require(
                Regions.partition(region).equals(Regions.partition(clusterRegion)),
                () -> KEY + " names an ECR registry in " + region + " (partition " + Regions.partition(region)
                        + "); the cluster's region " + clusterRegion + " is in " + Regions.partition(clusterRegion)
                        + ", whose credentials cannot get its pull token");
        return new ChartRepository(url, Registry.ECR, host, Optional.of(ecr.group(1)), Optional.of(region));
    }

    /** The registry as the helm provider logs in to it: oci://HOST. */
    public String registryUrl() {
        return "oci://" + host;
    }
}
