package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ServedApis;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which moves between Karpenter releases upstream allows in one deploy, and the way from one to another.
 *
 * <p>The path, from upstream's upgrade guides: 0.30/0.31 (v1alpha5); 0.32 from v0.31.4 on (v1alpha5 and v1beta1
 * side by side); 0.33 to 0.37 once no v1alpha5 object is left; 1.0 from the latest patch of 0.33 to 0.37 (the
 * conversion webhooks serve v1beta1 and v1); 1.1 and later from 1.0.6 on (it migrates stored objects to v1) once
 * the pools are declared as v1. Moves within a stage are free; each stage may roll back to the one before
 * (0.32 to v0.31.4+, 1.0 to a latest 0.33-0.37 patch, as upstream documents).
 *
 * <p>The stages are the APIs a minor serves ({@link ServedApis}); the patches, steps and messages come from the
 * release table ({@link KarpenterMinor}), so a refusal can only name a release the table has.
 */
public final class UpgradeSteps {
    private UpgradeSteps() {}

    /**
     * What the stacks were last applied with, as read back from their state.
     *
     * @param oldestDeclared the oldest API generation its pools were declared in
     */
    public record Deployed(KarpenterRelease release, ApiGeneration oldestDeclared) {
        public static Deployed of(DeclaredApis apis) {
            return new Deployed(apis.release(), apis.oldestDeclared());
        }

        /** What the guard needs to know of this deploy. */
        public UpgradeStation station() {
            return UpgradeStation.of(this);
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
        return stageMove(from, to).or(() -> driftingRollback(from.release(), to.release()));
    }

    /** A rollback from 0.36.0 on to a patch that computes drift the old way, which can replace every node. */
    private static Optional<Refusal> driftingRollback(KarpenterRelease f, KarpenterRelease t) {
        OptionalInt driftSafe = t.row().driftSafeRollbackPatch();
        if (!f.row().computesDriftAs036() || driftSafe.isEmpty() || t.patch() >= driftSafe.getAsInt()) {
            return Optional.empty();
        }
        return Optional.of(refusal(
                "upstream rolls " + f.minorSeries() + " back to " + t.minorSeries() + " from "
                        + new KarpenterRelease(t.major(), t.minor(), driftSafe.getAsInt()) + " on only: an older"
                        + " patch computes drift otherwise and can replace every node",
                Optional.of(DeclaredApis.retiring(newest(t)))));
    }

    private static Optional<Refusal> stageMove(Deployed from, DeclaredApis to) {
        KarpenterRelease f = from.release();
        KarpenterRelease t = to.release();
        ServedApis sf = stage(f);
        ServedApis st = stage(t);
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
                    "upstream allows no jump from " + f.minorSeries() + " to " + t.minorSeries() + "; the path passes "
                            + PATH_PASSES,
                    Optional.of(nextStep(from))));
        }
        return Optional.of(refusal(
                "Karpenter " + t.minorSeries() + " cannot read what " + f.minorSeries()
                        + " stores; upstream rolls back one stage only",
                Optional.empty()));
    }

    private static Optional<Refusal> forward(Deployed from, DeclaredApis to) {
        KarpenterRelease f = from.release();
        String next = firstRow(next(stage(f))).major() + "."
                + firstRow(next(stage(f))).minor();
        switch (stage(f)) {
            case V1ALPHA5 -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            next + " starts from " + stepReleases(stage(f))
                                    + ", the first releases it can roll back to",
                            Optional.of(nextStep(from))));
                }
            }
            case V1BETA1_BESIDE_V1ALPHA5 -> {
                if (from.oldestDeclared() == ApiGeneration.V1ALPHA5) {
                    return Optional.of(refusal(
                            next + " and later no longer serve v1alpha5; retire the Provisioners and"
                                    + " AWSNodeTemplate once no node labelled karpenter.sh/provisioner-name is left",
                            Optional.of(nextStep(from))));
                }
            }
            case V1BETA1 -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            next + " starts from the latest patch of the running minor (" + newest(f)
                                    + "), the only releases it can roll back to",
                            Optional.of(nextStep(from))));
                }
            }
            case V1_BESIDE_V1BETA1 -> {
                if (!atStepPatch(f)) {
                    return Optional.of(refusal(
                            next + " and later need every object stored as v1, which "
                                    + f.row().firstStepRelease().orElseThrow() + " and later migrate",
                            Optional.of(nextStep(from))));
                }
                if (from.oldestDeclared() == ApiGeneration.V1BETA1) {
                    return Optional.of(refusal(
                            next + " and later no longer serve v1beta1; declare the pools as v1 first",
                            Optional.of(nextStep(from))));
                }
            }
            default -> throw new IllegalStateException("no stage follows " + stage(f));
        }
        if (to.servesTwoGenerations() && to.kept().isEmpty()) {
            // 0.32 and 1.0 serve the previous generation so that the pools can move over while it runs; retiring
            // it in the upgrade itself deletes the Provisioners (every node drains at once) or leaves no rollback.
            ApiGeneration previous = to.release().row().served().previous().orElseThrow();
            return Optional.of(refusal(
                    next + " serves " + DeclaredApis.spelling(previous) + " beside "
                            + DeclaredApis.spelling(to.release().apiGeneration()) + " so that the pools move over"
                            + " while it runs: deploy it keeping the " + DeclaredApis.spelling(previous)
                            + " objects, then retire them in a deploy of their own",
                    Optional.of(DeclaredApis.keeping(to.release()))));
        }
        return Optional.empty();
    }

    /**
     * A rollback to the stage before. From 0.32 and from 1.0, upstream documents rollbacks only to the releases that
     * may take the step up again; the advice is the newest such release: of the target's minor where it has one,
     * else of the newest minor of that stage that has. Other rollbacks (to 0.32, to 1.0) take any patch.
     */
    private static Optional<Refusal> rollback(Deployed from, KarpenterRelease t) {
        boolean rollsBackToAStepRelease = stage(t) == ServedApis.V1ALPHA5 || stage(t) == ServedApis.V1BETA1;
        if (!rollsBackToAStepRelease || atStepPatch(t)) {
            return Optional.empty();
        }
        Optional<KarpenterRelease> minorsStep = t.row().firstStepRelease();
        String reason = minorsStep.isPresent()
                ? "upstream rolls " + from.release().minorSeries() + " back to " + t.minorSeries() + " from "
                        + minorsStep.get() + " on only"
                : "upstream rolls " + from.release().minorSeries() + " back to " + stepReleases(stage(t))
                        + " only, not to " + t.minorSeries();
        KarpenterRelease advice = minorsStep.isPresent() ? newest(t) : newestSteppable(stage(t));
        return Optional.of(refusal(reason, Optional.of(DeclaredApis.retiring(advice))));
    }

    /** The next deploy on the way up from {@code from}: a patch, a retirement, or the next stage. */
    public static DeclaredApis nextStep(Deployed from) {
        KarpenterRelease f = from.release();
        return switch (stage(f)) {
            case V1ALPHA5 ->
                DeclaredApis.keeping(
                        atStepPatch(f) ? firstRow(next(stage(f))).newestRelease() : newestSteppable(stage(f)));
            case V1BETA1_BESIDE_V1ALPHA5 ->
                from.oldestDeclared() == ApiGeneration.V1ALPHA5
                        ? DeclaredApis.retiring(f)
                        : DeclaredApis.retiring(lastRow(next(stage(f))).newestRelease());
            case V1BETA1 ->
                atStepPatch(f)
                        ? new DeclaredApis(
                                firstRow(next(stage(f))).newestRelease(), Optional.of(ApiGeneration.V1ALPHA5))
                        : DeclaredApis.retiring(newest(f));
            case V1_BESIDE_V1BETA1 ->
                !atStepPatch(f)
                        ? new DeclaredApis(
                                newest(f),
                                Optional.of(from.oldestDeclared())
                                        .filter(g -> g == ApiGeneration.V1)
                                        .map(g -> ApiGeneration.V1BETA1))
                        : from.oldestDeclared() == ApiGeneration.V1BETA1
                                ? DeclaredApis.retiring(f)
                                : DeclaredApis.retiring(KarpenterRelease.newest());
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

    /** The newest release this project knows: the default target of the path ({@link KarpenterRelease#newest}). */
    public static KarpenterRelease newestRelease() {
        return KarpenterRelease.newest();
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

    /**
     * Every station the guard may read back, for its lookup table, in the release table's order: per minor its
     * first release and, where the step starts at a later patch, that one; each with the previous generation's
     * objects kept, then retired.
     */
    public static List<UpgradeStation> stations() {
        List<UpgradeStation> stations = new ArrayList<>();
        for (KarpenterMinor minor : KarpenterMinor.all()) {
            List<KarpenterRelease> patches = new ArrayList<>(List.of(minor.firstRelease()));
            minor.firstStepRelease()
                    .filter(step -> !step.equals(minor.firstRelease()))
                    .ifPresent(patches::add);
            for (KarpenterRelease release : patches) {
                for (DeclaredApis apis : List.of(DeclaredApis.keeping(release), DeclaredApis.retiring(release))) {
                    UpgradeStation station = Deployed.of(apis).station();
                    if (!stations.contains(station)) {
                        stations.add(station);
                    }
                }
            }
        }
        return List.copyOf(stations);
    }

    /** The stage of the upgrade path a release is at: the APIs its minor serves. */
    static ServedApis stage(KarpenterRelease release) {
        return release.row().served();
    }

    /** Whether the release may take its stage's step up: at or past its minor's step patch. */
    static boolean atStepPatch(KarpenterRelease release) {
        return release.row().step().allows(release.patch());
    }

    private static KarpenterRelease newest(KarpenterRelease release) {
        return release.row().newestRelease();
    }

    private static ServedApis next(ServedApis stage) {
        return ServedApis.values()[stage.ordinal() + 1];
    }

    private static List<KarpenterMinor> rowsOf(ServedApis stage) {
        return KarpenterMinor.all().stream()
                .filter(row -> row.served() == stage)
                .toList();
    }

    private static KarpenterMinor firstRow(ServedApis stage) {
        return rowsOf(stage).get(0);
    }

    private static KarpenterMinor lastRow(ServedApis stage) {
        return rowsOf(stage).get(rowsOf(stage).size() - 1);
    }

    /** The newest release of the newest minor of {@code stage} that may take its step: where advice leads. */
    private static KarpenterRelease newestSteppable(ServedApis stage) {
        return rowsOf(stage).stream()
                .filter(row -> row.firstStepRelease().isPresent())
                .reduce((first, second) -> second)
                .orElseThrow()
                .newestRelease();
    }

    /** The releases of {@code stage} that may take its step, as messages name them: "v0.31.4 or later". */
    private static String stepReleases(ServedApis stage) {
        return rowsOf(stage).stream()
                .flatMap(row -> row.firstStepRelease().stream())
                .map(release -> release + " or later")
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * The stations the path passes, as the refusal of a jump names them: "v0.31.4+, v0.32.x, a latest 0.33-0.37
     * patch, then 1.0.x" (per stage before the last: the release its step starts from, its one minor, or a latest
     * patch of its minors; the stage before the last as its minor).
     */
    private static final String PATH_PASSES = pathPasses();

    private static String pathPasses() {
        List<String> stations = new ArrayList<>();
        ServedApis[] stages = ServedApis.values();
        for (int i = 0; i < stages.length - 2; i++) {
            List<KarpenterMinor> rows = rowsOf(stages[i]).stream()
                    .filter(row -> row.firstStepRelease().isPresent())
                    .toList();
            KarpenterMinor first = rows.get(0);
            KarpenterMinor last = rows.get(rows.size() - 1);
            stations.add(
                    rows.size() > 1
                            ? "a latest " + first.major() + "." + first.minor() + "-" + last.major() + "."
                                    + last.minor() + " patch"
                            : first.step().any()
                                    ? first.series()
                                    : first.firstStepRelease().orElseThrow() + "+");
        }
        return String.join(", ", stations) + ", then "
                + firstRow(stages[stages.length - 2]).series();
    }
}
