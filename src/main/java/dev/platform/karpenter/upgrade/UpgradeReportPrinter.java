package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.nodepools.manifest.GenerationManifests;
import dev.platform.karpenter.nodepools.manifest.KubernetesObject;
import dev.platform.karpenter.nodepools.manifest.NodePoolManifests;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.FieldMoves;
import dev.platform.karpenter.release.FieldMoves.Holder;
import dev.platform.karpenter.release.KubernetesRange;
import dev.platform.karpenter.upgrade.UpgradeReport.Check;
import dev.platform.karpenter.upgrade.UpgradeReport.MovedField;
import dev.platform.karpenter.upgrade.UpgradeReport.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** bin/upgrade-path's text: an {@link UpgradeReport} as lines, kinds and apiVersions named by their generation. */
final class UpgradeReportPrinter {
    private static final String DEPLOY = CdktfCli.command("deploy '*'");

    private UpgradeReportPrinter() {}

    static List<String> lines(UpgradeReport report) {
        List<String> lines = new ArrayList<>();
        lines.add("Karpenter " + report.from().release().chartVersion() + " is deployed on cluster " + report.cluster()
                + " (pools declared as " + DeclaredApis.spelling(report.from().oldestDeclared()) + ").");
        List<Step> steps = report.steps();
        if (steps.isEmpty()) {
            lines.add("Nothing to do: that is " + report.target().chartVersion() + ".");
            return lines;
        }
        lines.add(steps.size() + " step" + (steps.size() > 1 ? "s" : "") + " to "
                + report.target().chartVersion()
                + ", each one change of the tfvars and one deploy (" + DEPLOY + ", cdktf-cli " + CdktfCli.version()
                + "):");
        for (int i = 0; i < steps.size(); i++) {
            lines.add("");
            step(lines, report, i + 1, steps.get(i));
        }
        return lines;
    }

    private static void step(List<String> lines, UpgradeReport report, int number, Step step) {
        DeclaredApis apis = step.apis();
        lines.add(number + ". " + settingsLine(apis));
        KubernetesRange range = step.kubernetesRange();
        lines.add("   Kubernetes " + range + kubernetesVerdict(range, report.kubernetes()));
        if (step.updatesCrds()) {
            lines.add("   CRDs: the karpenter-crd chart " + apis.release().chartVersion()
                    + " updates them before the controller");
        }
        lines.add("   Pools: " + pools(apis) + changed(pools(step.before()), pools(apis)));
        lines.add("   IAM: controller policies " + String.join(", ", step.policies())
                + policyChange(step.policiesBefore(), step.policies())
                + (step.deletesInstanceProfile() ? "; the instance profile is deleted" : "")
                + step.newNodeEcrPolicy()
                        .map(policy -> "; a created node role gets " + policy)
                        .orElse(""));
        lines.add("   Helm values: " + valueKeys(apis) + changed(valueKeys(step.before()), valueKeys(apis)));
        if (step.interruptionRules() != step.interruptionRulesBefore()) {
            lines.add("   Interruption: " + step.interruptionRules() + " EventBridge rules (was "
                    + step.interruptionRulesBefore() + ")");
        }
        for (FieldMoves.Change change : step.changes()) {
            moves(lines, change);
        }
        if (!step.changes().isEmpty() && report.setsSpecs()) {
            if (step.movedFields().isEmpty()) {
                lines.add("   Your specs set none of these fields.");
            } else {
                lines.add("   Your fields that move:");
                step.movedFields().forEach(field -> lines.add("     " + movedField(field)));
            }
        }
        step.settingsProblem()
                .ifPresent(problem -> lines.add("   Your other settings do not hold for this step: " + problem));
        for (Check check : step.checksBeforeNext()) {
            lines.add("   Before the next step: " + check(check, report, step));
        }
        if (report.kubernetes().isPresent()
                && !range.contains(report.kubernetes().get())) {
            waysThrough(lines, report, apis, report.kubernetes().get());
        }
    }

    static String settingsLine(DeclaredApis step) {
        String line = "karpenter_chart_version = \"" + step.release().chartVersion() + "\"";
        if (!step.servesTwoGenerations()) {
            return line;
        }
        return line
                + step.kept()
                        .map(kept -> ", keeping the " + DeclaredApis.spelling(kept) + " objects (retired_api not \""
                                + DeclaredApis.spelling(kept) + "\")")
                        .orElseGet(() -> ", retired_api = \""
                                + DeclaredApis.spelling(step.retired().orElseThrow()) + "\"");
    }

    private static String kubernetesVerdict(KubernetesRange range, Optional<String> kubernetes) {
        if (kubernetes.isEmpty()) {
            return " (pass --kubernetes with the cluster's version to check it)";
        }
        return range.contains(kubernetes.get())
                ? " (the cluster's " + kubernetes.get() + ": fits)"
                : " (the cluster runs " + kubernetes.get() + ": OUTSIDE, see below)";
    }

    /** "NodePool + EC2NodeClass (karpenter.sh/v1)" per declared generation. */
    private static String pools(DeclaredApis apis) {
        List<String> parts = new ArrayList<>();
        for (ApiGeneration generation : apis.rendered()) {
            GenerationManifests manifests = NodePoolManifests.of(generation);
            parts.add(manifests.poolType().kind() + " + "
                    + manifests.nodeClassType().kind() + " ("
                    + manifests.poolType().apiVersion() + ")");
        }
        return String.join(" beside ", parts);
    }

    private static String valueKeys(DeclaredApis apis) {
        List<String> keys = new ArrayList<>(List.of(
                apis.valueKeys().clusterName().toString(),
                apis.valueKeys().clusterEndpoint().toString(),
                apis.valueKeys().interruptionQueue().toString()));
        apis.valueKeys().defaultInstanceProfile().ifPresent(path -> keys.add(path.toString()));
        return String.join(", ", keys);
    }

    private static String changed(String before, String after) {
        return before.equals(after) ? " (unchanged)" : " (was " + before + ")";
    }

    private static String policyChange(List<String> before, List<String> after) {
        List<String> added =
                after.stream().filter(name -> !before.contains(name)).toList();
        List<String> removed =
                before.stream().filter(name -> !after.contains(name)).toList();
        String change = (added.isEmpty() ? "" : "; added " + String.join(", ", added))
                + (removed.isEmpty() ? "" : "; removed " + String.join(", ", removed));
        return change.isEmpty() ? " (same policies)" : change;
    }

    /** The generation change's moved fields, each with the kinds of both generations. */
    private static void moves(List<String> lines, FieldMoves.Change change) {
        GenerationManifests from = NodePoolManifests.of(change.from());
        GenerationManifests to = NodePoolManifests.of(change.to());
        lines.add("   Fields that move from " + typeName(from.poolType()) + " and " + typeName(from.nodeClassType())
                + " to " + typeName(to.poolType()) + " and " + typeName(to.nodeClassType()) + ":");
        for (FieldMoves.Move move : change.moves()) {
            lines.add("     "
                    + describe(
                            type(from, move.fromHolder()).kind() + " " + specPath(move.from()),
                            move.to().map(path -> type(to, move.toHolder()).kind() + " " + specPath(path)),
                            move.change()));
        }
    }

    /** "node_pool_spec.ttlSecondsUntilExpired -> node_pool_spec.disruption.expireAfter (a duration ...)". */
    static String movedField(MovedField field) {
        FieldMoves.Move move = field.move();
        return describe(
                settingPath(field.setting(), move.from()),
                move.to().map(path -> settingPath(field.toSetting().orElse(field.setting()), path)),
                move.change());
    }

    /** A move, a removal, or (where the place stays) a change of the value's form. */
    private static String describe(String source, Optional<String> destination, String change) {
        if (destination.isEmpty()) {
            return source + ": removed" + (change.isEmpty() ? "" : " (" + change + ")");
        }
        if (destination.get().equals(source)) {
            return source + (change.isEmpty() ? "" : ": " + change);
        }
        return source + " -> " + destination.get() + (change.isEmpty() ? "" : " (" + change + ")");
    }

    /** "NodePool (karpenter.sh/v1)". */
    private static String typeName(KubernetesObject.Type type) {
        return type.kind() + " (" + type.apiVersion() + ")";
    }

    private static KubernetesObject.Type type(GenerationManifests manifests, Holder holder) {
        return holder == Holder.POOL ? manifests.poolType() : manifests.nodeClassType();
    }

    private static String specPath(List<String> path) {
        return settingPath("spec", path);
    }

    private static String settingPath(String setting, List<String> path) {
        return path.isEmpty() ? setting : setting + "." + String.join(".", path);
    }

    private static String check(Check check, UpgradeReport report, Step step) {
        GenerationManifests v1alpha5 = NodePoolManifests.of(ApiGeneration.V1ALPHA5);
        GenerationManifests v1 = NodePoolManifests.of(ApiGeneration.V1);
        return switch (check) {
            case CONTROLLER_RUNS ->
                "the controller runs the new version: kubectl -n " + report.namespace()
                        + " get pods -l app.kubernetes.io/name=karpenter";
            case NO_PROVISIONER_NODES ->
                "no node of a " + v1alpha5.poolType().kind() + " is left (the "
                        + NodePoolManifests.of(ApiGeneration.V1BETA1).poolType().kind()
                        + "s replace them as they are drained): kubectl get nodes -l "
                        + ApiGeneration.V1ALPHA5.poolLabel() + " prints nothing";
            case CONVERSION_WEBHOOKS ->
                "the conversion webhooks answer: kubectl get " + v1.poolType().versionedResource() + ","
                        + v1.nodeClassType().versionedResource();
            case STORED_AS_V1 -> {
                String v1Spelling = DeclaredApis.spelling(ApiGeneration.V1);
                yield "every object is stored as " + v1Spelling + " ("
                        + step.apis().release().row().firstStepRelease().orElseThrow()
                        + " and later migrate them): kubectl get crd "
                        + v1.poolType().resource() + " nodeclaims."
                        + v1.poolType().group() + " " + v1.nodeClassType().resource()
                        + " -o jsonpath='{.items[*].status.storedVersions}' prints only " + v1Spelling;
            }
        };
    }

    private static void waysThrough(List<String> lines, UpgradeReport report, DeclaredApis step, String kubernetes) {
        String target = report.target().chartVersion();
        lines.add("   ! Kubernetes " + kubernetes + " is outside "
                + step.release().chartVersion() + "'s range: its plan fails. Ways through:");
        lines.add("     a) take this step anyway: add upgrade_override = \""
                + step.release().chartVersion()
                + "\" for this deploy (it waives the range check and the step guard for this version only; upstream"
                + " does not test the combination), then remove it");
        lines.add("     b) install " + target
                + " fresh, keeping IAM and the queue: "
                + CdktfCli.command("destroy " + String.join(" ", report.reinstalled()))
                + " (Karpenter drains and terminates its nodes"
                + " first), then karpenter_chart_version = \"" + target + "\" and upgrade_override = \""
                + target + "\", " + DEPLOY + ", and remove upgrade_override");
    }
}
