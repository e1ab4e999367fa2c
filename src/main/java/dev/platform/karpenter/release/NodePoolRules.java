package dev.platform.karpenter.release;

import java.util.List;

/**
 * What the declared generations accept in their pools and node classes, for checks at synth: settings that no
 * declared generation knows fail with a message instead of being silently dropped or rejected by the webhook at apply.
 *
 * @param rendered the generations whose objects are rendered (0.32 before retiring: v1alpha5 and v1beta1)
 * @param al2023   whether the node class accepts AL2023 (added in 0.33)
 */
public record NodePoolRules(List<ApiGeneration> rendered, boolean al2023) {
    private static final int FIRST_AL2023_MINOR = 33;

    public NodePoolRules {
        rendered = List.copyOf(rendered);
    }

    public static NodePoolRules of(KarpenterRelease release) {
        return of(DeclaredApis.retiring(release));
    }

    public static NodePoolRules of(DeclaredApis apis) {
        KarpenterRelease release = apis.release();
        boolean al2023 = !apis.rendered().contains(ApiGeneration.V1ALPHA5)
                && (release.apiGeneration() == ApiGeneration.V1 || release.minor() >= FIRST_AL2023_MINOR);
        return new NodePoolRules(apis.rendered(), al2023);
    }

    /**
     * 0.x removes empty nodes after Provisioner.spec.ttlSecondsAfterEmpty; later generations replaced it with
     * consolidateAfter (the converted v1beta1 pool of 0.32 takes it as WhenEmpty after that many seconds).
     */
    public boolean hasTtlSecondsAfterEmpty() {
        return rendered.contains(ApiGeneration.V1ALPHA5);
    }

    /** v1beta1 and v1 delay consolidation by NodePool.spec.disruption.consolidateAfter; v1alpha5 has no such field. */
    public boolean hasConsolidateAfter() {
        return newest() != ApiGeneration.V1ALPHA5;
    }

    /** v1beta1 accepts consolidateAfter only with WhenEmpty (consolidation = false); v1 with both policies. */
    public boolean consolidateAfterNeedsConsolidationOff() {
        return newest() == ApiGeneration.V1BETA1;
    }

    /** AMI families the node class accepts, as the tfvars spell them: AL2023 support came with 0.33. */
    public List<String> amiFamilies() {
        return al2023 ? List.of("Bottlerocket", "AL2023", "AL2") : List.of("Bottlerocket", "AL2");
    }

    /**
     * v1beta1 and v1: deleting the EC2NodeClass waits, through Karpenter's termination finalizer, until its nodes
     * are gone. v1alpha5: Provisioner and AWSNodeTemplate have no finalizer, so an uninstall hook has to wait.
     */
    public boolean nodeClassDeletionWaitsForNodes() {
        return !rendered.contains(ApiGeneration.V1ALPHA5);
    }

    /** The name of the newest generation's pool kind, for messages. */
    public String poolKind() {
        return newest() == ApiGeneration.V1ALPHA5 ? "Provisioner" : "NodePool";
    }

    private ApiGeneration newest() {
        return rendered.get(rendered.size() - 1);
    }
}
