package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterRelease;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * bin/upgrade-path's command line, parsed and checked.
 *
 * @param from       the deployed release, when given instead of read from the state
 * @param fromApi    the oldest generation its pools are declared in (only with {@code from})
 * @param to         the target, the newest release when absent
 * @param kubernetes the cluster's Kubernetes minor version, "1.N"
 */
record UpgradeOptions(
        Optional<KarpenterRelease> from,
        Optional<ApiGeneration> fromApi,
        Optional<KarpenterRelease> to,
        Optional<String> kubernetes,
        Optional<Path> tfvars) {
    static final String USAGE = "usage: bin/upgrade-path [--from VERSION [--from-api v1alpha5|v1beta1|v1]]"
            + " [--to VERSION] [--kubernetes 1.N] [TFVARS]";
    private static final List<String> NAMED = List.of("--from", "--from-api", "--to", "--kubernetes");

    /**
     * @throws ConfigException (or IllegalArgumentException for a release this project does not know) in one line
     */
    static UpgradeOptions parse(String... args) {
        Map<String, String> named = new LinkedHashMap<>();
        Path tfvars = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (NAMED.contains(arg)) {
                if (i + 1 == args.length) {
                    throw new ConfigException(arg + " needs a value; " + USAGE);
                }
                named.put(arg, args[++i]);
            } else if (arg.startsWith("-") || tfvars != null) {
                throw new ConfigException("unexpected argument " + ConfigException.quote(arg) + "; " + USAGE);
            } else {
                tfvars = Path.of(arg);
            }
        }
        Optional<String> kubernetes = Optional.ofNullable(named.get("--kubernetes"));
        if (kubernetes.isPresent() && !kubernetes.get().matches("1\\.[0-9]+")) {
            throw new ConfigException("--kubernetes must be a Kubernetes minor version such as 1.29, got "
                    + ConfigException.quote(kubernetes.get()));
        }
        if (named.containsKey("--from-api") && !named.containsKey("--from")) {
            throw new ConfigException("--from-api needs --from; " + USAGE);
        }
        Optional<ApiGeneration> fromApi = Optional.ofNullable(named.get("--from-api"))
                .map(name -> ApiGeneration.named(name)
                        .orElseThrow(() -> new ConfigException(
                                "--from-api must be v1alpha5, v1beta1 or v1, got " + ConfigException.quote(name))));
        return new UpgradeOptions(
                Optional.ofNullable(named.get("--from")).map(KarpenterRelease::of),
                fromApi,
                Optional.ofNullable(named.get("--to")).map(KarpenterRelease::of),
                kubernetes,
                Optional.ofNullable(tfvars));
    }
}
