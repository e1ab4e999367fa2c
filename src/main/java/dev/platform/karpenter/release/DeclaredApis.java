package dev.platform.karpenter.release;

import java.util.List;
import java.util.Optional;

/**
 * The API generations a deploy declares its pools and node class in. Usually the release's own; 0.32 and 1.0 serve
 * two generations, and a cluster arriving from the previous one keeps its objects in that generation until their
 * nodes are gone (0.32: the Provisioners and AWSNodeTemplate beside their converted NodePools and EC2NodeClass;
 * 1.0: the NodePools and EC2NodeClass still as v1beta1) until {@code retired_api} names that generation.
 *
 * @param retired retired_api: the newest generation whose objects are no longer declared (older ones neither)
 */
public record DeclaredApis(KarpenterRelease release, Optional<ApiGeneration> retired) {
    /**
     * From the retired_api setting: absent, "v1alpha5" (0.32 and later) or "v1beta1" (1.0 and later, implying
     * v1alpha5). Naming a generation the release still uses as its own is a mistake worth a message.
     *
     * @throws IllegalArgumentException with a one-line message naming retired_api and what is allowed
     */
    public static DeclaredApis from(KarpenterRelease release, Optional<String> retiredApi) {
        if (retiredApi.isEmpty()) {
            return keeping(release);
        }
        List<ApiGeneration> retirable = java.util.Arrays.stream(ApiGeneration.values())
                .filter(generation ->
                        generation.ordinal() < release.apiGeneration().ordinal())
                .toList();
        List<String> names = retirable.stream().map(DeclaredApis::spelling).toList();
        return retirable.stream()
                .filter(generation -> spelling(generation).equals(retiredApi.get()))
                .findFirst()
                .map(generation -> new DeclaredApis(release, Optional.of(generation)))
                .orElseThrow(() -> new IllegalArgumentException("retired_api \"" + retiredApi.get()
                        + "\" cannot be retired with Karpenter "
                        + release
                        + (names.isEmpty()
                                ? ": it serves v1alpha5 only; remove retired_api"
                                : "; use "
                                        + String.join(
                                                " or ",
                                                names.stream()
                                                        .map(n -> "\"" + n + "\"")
                                                        .toList()))));
    }

    /** How tfvars and messages spell a generation: "v1alpha5", "v1beta1", "v1". */
    public static String spelling(ApiGeneration generation) {
        return generation.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Nothing retired: a release that serves two generations declares both. */
    public static DeclaredApis keeping(KarpenterRelease release) {
        return new DeclaredApis(release, Optional.empty());
    }

    /** Only the release's own generation declared. */
    public static DeclaredApis retiring(KarpenterRelease release) {
        return new DeclaredApis(
                release,
                release.apiGeneration() == ApiGeneration.V1ALPHA5
                        ? Optional.empty()
                        : Optional.of(
                                ApiGeneration.values()[release.apiGeneration().ordinal() - 1]));
    }

    /** The previous generation, when this release still serves it and it has not been retired. */
    public Optional<ApiGeneration> kept() {
        Optional<ApiGeneration> previous = release.row().served().previous();
        return previous.filter(generation -> retired.isEmpty() || retired.get().ordinal() < generation.ordinal());
    }

    /** Whether this release serves two generations, so retired_api decides what is declared. */
    public boolean servesTwoGenerations() {
        return release.row().served().previous().isPresent();
    }

    /**
     * The generations whose objects are declared, oldest first. At 1.0 the kept v1beta1 objects are the pools
     * themselves (same kinds and names), so only one generation is rendered.
     */
    public List<ApiGeneration> rendered() {
        Optional<ApiGeneration> kept = kept();
        if (kept.isEmpty()) {
            return List.of(release.apiGeneration());
        }
        return kept.get() == ApiGeneration.V1ALPHA5
                ? List.of(ApiGeneration.V1ALPHA5, ApiGeneration.V1BETA1)
                : List.of(kept.get());
    }

    /** The oldest generation declared: what the next step's guard must know about this deploy. */
    public ApiGeneration oldestDeclared() {
        return rendered().get(0);
    }

    /** Where the chart reads its values; 0.32 with Provisioners left also needs their instance profile. */
    public HelmValueKeys valueKeys() {
        return rendered().contains(ApiGeneration.V1ALPHA5) && release.apiGeneration() != ApiGeneration.V1ALPHA5
                ? HelmValueKeys.V1_WITH_ALPHA_PROFILE
                : release.valueKeys();
    }

    /** An instance profile is made while v1alpha5 objects are declared: their nodes take it from the settings. */
    public boolean needsInstanceProfile() {
        return valueKeys().defaultInstanceProfile().isPresent();
    }
}
