package dev.platform.karpenter.versions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which moves between Karpenter releases upstream allows in one deploy, and the way from one to another.
 *
 * <p>The path, from upstream's upgrade guides: 0.30/0.31 (v1alpha5); 0.32 from v0.31.4 on (v1alpha5 and v1beta1
 * side by side); 0.33 to 0.37 once no v1alpha5 object is left; 1.0 from the latest patch of 0.33 to 0.37 (the
 * conversion webhooks serve v1beta1 and v1); 1.1 and later from 1.0.6 on (it migrates stored objects to v1) once
 * the pools are declared as v1. Moves within a stage are free; each stage may roll back to the one before
 * (0.32 to v0.31.4+, 1.0 to a latest 0.33-0.37 patch, as upstream documents).
 */
public final class UpgradeSteps {
    /** The newest patch of each minor on the path: the versions a step recommends. */
    private static final Map<String, Integer> NEWEST_PATCH = Map.of(
            "0.31", 5, "0.32", 10, "0.33", 12, "0.34", 13, "0.35", 12, "0.36", 9, "0.37", 8, "1.0", 14, "1.14", 1);
    /** From this patch on, a release may take the next stage's step (and be the target of a rollback from it). */
    private static final Map<String, Integer> STEP_PATCH =
            Map.of("0.31", 4, "0.33", 12, "0.34", 13, "0.35", 12, "0.36", 9, "0.37", 7, "1.0", 6);

    private UpgradeSteps() {}

    /** Stages of the path, in order. */
    enum Stage {
        ALPHA,
        BRIDGE,
        BETA,
        CONVERSION,
        V1
    }

    /**
     * What the stacks were last applied with, as read back from their state.
     *
     * @param oldestDeclared the oldest API generation its pools were declared in
     */
    public record Deployed(KarpenterRelease release, ApiGeneration oldestDeclared) {
        public static Deployed of(DeclaredApis apis) {
            return new Deployed(apis.release(), apis.oldestDeclared());
        }

        /**
         * What the guard needs to know of this deploy, as one string kept in state: minor, whether the patch is at
         * or past the minor's step patch, the oldest generation. E.g. "0.33/early/v1beta1".
         */
        public String station() {
            return release.major() + "." + release.minor() + "/" + (atStepPatch(release) ? "latest" : "early") + "/"
                    + DeclaredApis.spelling(oldestDeclared);
        }
    }

    /**
     * A move upstream does not allow.
     *
     * @param next  the next allowed deploy on the way, with retired_api when that is what is missing
     * @param again whether that next deploy is the deployed release itself, with another retired_api
     */
    public record Refusal(String reason, Optional<DeclaredApis> next, boolean again) {
        /** The advice part of a message: "the next allowed step is 0.37.8" or what to set. */
        public String advice() {
            if (next.isEmpty()) {
                return "no supported way leads there from the deployed release";
            }
            if (again) {
                return "the next allowed step is the deployed release again with retired_api = \""
                        + DeclaredApis.spelling(next.get().retired().orElseThrow()) + "\"";
            }
            return "the next allowed step is " + describe(next.get());
        }
    }

    private static Refusal refusal(String reason, Optional<DeclaredApis> next) {
        return new Refusal(reason, next, false);
    }

    /** Empty when {@code to} may be deployed over {@code from} in one step. */
    public static Optional<Refusal> check(Deployed from, DeclaredApis to) {
        return move(from, to)
                .map(refusal -> new Refusal(
                        refusal.reason(),
                        refusal.next(),
                        refusal.next()
                                .filter(next -> next.release().equals(from.release()))
                                .isPresent()));
    }

    private static Optional<Refusal> move(Deployed from, DeclaredApis to) {
        KarpenterRelease f = from.release();
        KarpenterRelease t = to.release();
        Stage sf = stage(f);
        Stage st = stage(t);
        if (sf == st) {
            return Optional.empty();
        }
        if (st.ordinal() == sf.ordinal() + 1) {
            return forward(from, to);
        }
        if (st.ordinal() == sf.ordinal() - 1) {
            return rollback(from, t);
        }
        if (st.ordinal() > sf.ordinal()) {
            return Optional.of(refusal(
                    "upstream allows no jump from " + f.minorSeries() + " to " + t.minorSeries()
                            + "; the path passes v0.31.4+, v0.32.x, a latest 0.33-0.37 patch, then 1.0.x",
                    Optional.of(nextStep(from))));
        }
        return Optional.of(refusal(
                "Karpenter " + t.minorSeries() + " cannot read what " + f.minorSeries()
                        + " stores; upstream rolls back one stage only",
                Optional.empty()));
    }

    private static Optional<Refusal> forward(Deployed from, DeclaredApis to) {
        KarpenterRelease f = from.release();
        switch (stage(f)) {
            case ALPHA -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            "0.32 starts from v0.31.4 or later, the first releases it can roll back to",
                            Optional.of(nextStep(from))));
                }
            }
            case BRIDGE -> {
                if (from.oldestDeclared() == ApiGeneration.V1ALPHA5) {
                    return Optional.of(refusal(
                            "0.33 and later no longer serve v1alpha5; retire the Provisioners and"
                                    + " AWSNodeTemplate once no node labelled karpenter.sh/provisioner-name is left",
                            Optional.of(nextStep(from))));
                }
            }
            case BETA -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            "1.0 starts from the latest patch of the running minor (" + newest(f)
                                    + "), the only releases it can roll back to",
                            Optional.of(nextStep(from))));
                }
            }
            case CONVERSION -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            "1.1 and later need every object stored as v1, which 1.0.6 and later" + " migrate",
                            Optional.of(nextStep(from))));
                }
                if (from.oldestDeclared() == ApiGeneration.V1BETA1) {
                    return Optional.of(refusal(
                            "1.1 and later no longer serve v1beta1; declare the pools as v1 first",
                            Optional.of(nextStep(from))));
                }
            }
            default -> throw new IllegalStateException("no stage follows " + stage(f));
        }
        return Optional.empty();
    }

    private static Optional<Refusal> rollback(Deployed from, KarpenterRelease t) {
        return switch (stage(t)) {
            case ALPHA, BETA ->
                atStepPatch(t)
                        ? Optional.empty()
                        : Optional.of(refusal(
                                "upstream rolls "
                                        + from.release().minorSeries() + " back to "
                                        + newest(t).minorSeries() + " from "
                                        + newest(t).minorSeries().replace(".x", "." + STEP_PATCH.get(series(t)))
                                        + " on only",
                                Optional.of(DeclaredApis.retiring(newest(t)))));
            default -> Optional.empty();
        };
    }

    /** The next deploy on the way up from {@code from}: a patch, a retirement, or the next stage. */
    public static DeclaredApis nextStep(Deployed from) {
        KarpenterRelease f = from.release();
        return switch (stage(f)) {
            case ALPHA -> DeclaredApis.keeping(atStepPatch(f) ? newest(0, 32) : newest(0, 31));
            case BRIDGE ->
                from.oldestDeclared() == ApiGeneration.V1ALPHA5
                        ? DeclaredApis.retiring(f)
                        : DeclaredApis.retiring(newest(0, KarpenterRelease.LAST_V1BETA1_MINOR));
            case BETA ->
                atStepPatch(f)
                        ? new DeclaredApis(newest(1, 0), Optional.of(ApiGeneration.V1ALPHA5))
                        : DeclaredApis.retiring(newest(f));
            case CONVERSION ->
                !atStepPatch(f)
                        ? new DeclaredApis(
                                newest(1, 0),
                                Optional.of(from.oldestDeclared())
                                        .filter(g -> g == ApiGeneration.V1)
                                        .map(g -> ApiGeneration.V1BETA1))
                        : from.oldestDeclared() == ApiGeneration.V1BETA1
                                ? DeclaredApis.retiring(f)
                                : DeclaredApis.retiring(newestRelease());
            case V1 -> DeclaredApis.retiring(f);
        };
    }

    /**
     * The deploys from {@code from} to {@code target}, in order, each allowed after the one before: arriving at a
     * release that serves two generations keeps the previous one; leaving it retires it first.
     */
    public static List<DeclaredApis> path(Deployed from, KarpenterRelease target) {
        List<DeclaredApis> steps = new ArrayList<>();
        Deployed current = from;
        while (!current.release().equals(target)) {
            DeclaredApis arrive = new DeclaredApis(
                    target,
                    current.oldestDeclared() == ApiGeneration.V1ALPHA5
                            ? Optional.empty()
                            : Optional.of(
                                    ApiGeneration.values()[
                                            current.oldestDeclared().ordinal() - 1]));
            Optional<Refusal> refusal = check(current, arrive);
            Deployed start = current;
            DeclaredApis step = refusal.isEmpty()
                    ? arrive
                    : refusal.get()
                            .next()
                            .orElseThrow(() -> new IllegalArgumentException(
                                    "no supported way from Karpenter " + start.release() + " to " + target + ": "
                                            + refusal.get().reason()));
            steps.add(step);
            current = Deployed.of(step);
            if (steps.size() > 12) {
                throw new IllegalStateException("no path from " + from.release() + " to " + target);
            }
        }
        return List.copyOf(steps);
    }

    /** The newest release this project knows: the default target of the path. */
    public static KarpenterRelease newestRelease() {
        return newest(1, KarpenterRelease.newestOfEachMajor().get(1).minor());
    }

    /** A deploy as a user sets it: "0.37.8", "v0.32.10 with retired_api = \"v1alpha5\"". */
    public static String describe(DeclaredApis step) {
        if (!step.servesTwoGenerations()) {
            return step.release().chartVersion();
        }
        return step.release().chartVersion()
                + step.kept()
                        .map(kept -> " keeping the " + DeclaredApis.spelling(kept) + " objects")
                        .orElseGet(() -> " with retired_api = \""
                                + DeclaredApis.spelling(step.retired().orElseThrow()) + "\"");
    }

    /** One representative deploy of every station the guard may read back, for its lookup table. */
    public static List<Deployed> stations() {
        List<Deployed> stations = new ArrayList<>();
        List<KarpenterRelease> minors = new ArrayList<>();
        for (int minor = 30; minor <= KarpenterRelease.LAST_V1BETA1_MINOR; minor++) {
            minors.add(new KarpenterRelease(0, minor, 0));
        }
        int newestV1Minor = KarpenterRelease.newestOfEachMajor().get(1).minor();
        for (int minor = 0; minor <= newestV1Minor; minor++) {
            minors.add(new KarpenterRelease(1, minor, 0));
        }
        for (KarpenterRelease minor : minors) {
            Integer stepPatch = STEP_PATCH.get(series(minor));
            List<KarpenterRelease> patches = stepPatch == null
                    ? List.of(minor)
                    : List.of(minor, new KarpenterRelease(minor.major(), minor.minor(), stepPatch));
            for (KarpenterRelease release : patches) {
                for (DeclaredApis apis : List.of(DeclaredApis.keeping(release), DeclaredApis.retiring(release))) {
                    Deployed deployed = Deployed.of(apis);
                    if (!stations.contains(deployed)) {
                        stations.add(deployed);
                    }
                }
            }
        }
        return List.copyOf(stations);
    }

    static Stage stage(KarpenterRelease release) {
        if (release.major() == 1) {
            return release.minor() == 0 ? Stage.CONVERSION : Stage.V1;
        }
        if (release.minor() < KarpenterRelease.FIRST_V1BETA1_MINOR) {
            return Stage.ALPHA;
        }
        return release.minor() == KarpenterRelease.FIRST_V1BETA1_MINOR ? Stage.BRIDGE : Stage.BETA;
    }

    /** Whether the release is at or past its minor's step patch (always, for minors without one, except 0.30). */
    static boolean atStepPatch(KarpenterRelease release) {
        if (release.major() == 0 && release.minor() == 30) {
            return false;
        }
        Integer stepPatch = STEP_PATCH.get(series(release));
        return stepPatch == null || release.patch() >= stepPatch;
    }

    private static KarpenterRelease newest(KarpenterRelease release) {
        return newest(release.major(), release.minor());
    }

    private static KarpenterRelease newest(int major, int minor) {
        return new KarpenterRelease(major, minor, NEWEST_PATCH.getOrDefault(major + "." + minor, 0));
    }

    private static String series(KarpenterRelease release) {
        return release.major() + "." + release.minor();
    }
}
