package dev.platform.karpenter.release;

import java.util.List;

/**
 * What a Karpenter generation accepts in its pools and node classes, for checks at synth: settings that only one
 * generation knows fail with a message instead of being silently dropped or rejected by the webhook at apply.
 */
public record NodePoolRules(ApiGeneration generation) {

    public static NodePoolRules of(KarpenterRelease release) {
        return new NodePoolRules(release.apiGeneration());
    }

    /** 0.x removes empty nodes after Provisioner.spec.ttlSecondsAfterEmpty; 1.x replaced it with consolidateAfter. */
    public boolean hasTtlSecondsAfterEmpty() {
        return generation == ApiGeneration.V1ALPHA5;
    }

    /** 1.x delays consolidation by NodePool.spec.disruption.consolidateAfter; 0.x consolidates as soon as it can. */
    public boolean hasConsolidateAfter() {
        return generation == ApiGeneration.V1;
    }

    /** AMI families the node class accepts, as the tfvars spell them: 0.30 predates AL2023 support (added in 0.33). */
    public List<String> amiFamilies() {
        return generation == ApiGeneration.V1 ? List.of("Bottlerocket", "AL2023", "AL2") : List.of("Bottlerocket", "AL2");
    }

    /**
     * 1.x: deleting the EC2NodeClass waits, through Karpenter's termination finalizer, until its nodes are gone.
     * 0.x: Provisioner and AWSNodeTemplate have no finalizer, so an uninstall hook has to wait for the nodes.
     */
    public boolean nodeClassDeletionWaitsForNodes() {
        return generation == ApiGeneration.V1;
    }

    /** The name of the generation's pool kind, for messages. */
    public String poolKind() {
        return generation == ApiGeneration.V1 ? "NodePool" : "Provisioner";
    }
}
