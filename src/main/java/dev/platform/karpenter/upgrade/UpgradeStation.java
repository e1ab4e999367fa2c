package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the step guard needs to know of a deploy: its minor, whether its patch is at or past the minor's step patch,
 * and the oldest API generation its pools were declared in. Deploys at the same station get the same verdict for
 * every move, so the guard's table is keyed by station. The IAM stack keeps it in state as its {@link #key()}.
 */
public record UpgradeStation(KarpenterMinor minor, boolean atStep, ApiGeneration oldestDeclared) {
    private static final Pattern KEY = Pattern.compile("(\\d+)\\.(\\d+)/(latest|early)/(\\w+)");

    public static UpgradeStation of(Deployed deployed) {
        KarpenterRelease release = deployed.release();
        return new UpgradeStation(
                release.row(), release.row().step().allows(release.patch()), deployed.oldestDeclared());
    }

    /** As kept in state: minor, "latest" or "early", the oldest generation, e.g. "0.33/early/v1beta1". */
    public String key() {
        return minor.major() + "." + minor.minor() + "/" + (atStep ? "latest" : "early") + "/"
                + DeclaredApis.spelling(oldestDeclared);
    }

    /** The station a key names, empty for one that names no supported minor or is not a key. */
    public static Optional<UpgradeStation> parse(String key) {
        Matcher matcher = KEY.matcher(key);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        Optional<ApiGeneration> generation = ApiGeneration.named(matcher.group(4));
        return KarpenterMinor.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)))
                .flatMap(minor -> generation.map(
                        oldest -> new UpgradeStation(minor, matcher.group(3).equals("latest"), oldest)));
    }

    /** A deploy at this station: the minor's first release, or its first at the step patch. */
    public Deployed representative() {
        KarpenterRelease release = atStep ? minor.firstStepRelease().orElseThrow() : minor.firstRelease();
        return new Deployed(release, oldestDeclared);
    }

    @Override
    public String toString() {
        return key();
    }
}
