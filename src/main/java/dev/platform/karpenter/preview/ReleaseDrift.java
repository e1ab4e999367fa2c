package dev.platform.karpenter.preview;

import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import java.util.Optional;

/**
 * Whether changing the Karpenter release alone drifts nodes. Karpenter stamps each node with the hash of its pool
 * and node class and the version of the hash computation (NodePoolHashVersion in kubernetes-sigs/karpenter
 * pkg/apis/v1/nodepool.go, EC2NodeClassHashVersion in aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go). From
 * 0.36 (and the patches 0.32.9, 0.33.4, 0.34.5, 0.35.4) a release that changes the computation bumps the version, and
 * Karpenter then re-stamps the nodes whose version differs (none included) instead of drifting them (the node pool
 * and node class hash controllers); new defaults of hashed fields come with such a bump. Releases without versions
 * drift a node whose hash they compute differently, which is why rolling back from 0.36 or later to a patch without
 * versions can drift every node.
 */
final class ReleaseDrift {
    private ReleaseDrift() {}

    /** The pool hash version of a release; empty before versions. */
    static Optional<String> nodePoolHashVersion(KarpenterRelease release) {
        if (!versioned(release)) {
            return Optional.empty();
        }
        return Optional.of(release.isV1() ? "v3" : "v2");
    }

    /** The node class hash version of a release; empty before versions. */
    static Optional<String> nodeClassHashVersion(KarpenterRelease release) {
        if (!versioned(release)) {
            return Optional.empty();
        }
        if (!release.isV1()) {
            return Optional.of("v2");
        }
        return Optional.of(release.minor() == 0 ? "v3" : release.minor() < 12 ? "v4" : "v5");
    }

    private static boolean versioned(KarpenterRelease release) {
        KarpenterMinor row = release.row();
        return row.computesDriftAs036()
                || row.driftSafeRollbackPatch().isPresent()
                        && release.patch() >= row.driftSafeRollbackPatch().getAsInt();
    }

    /** The release change from {@code base} to {@code head} in one sentence; empty where the release is the same. */
    static Optional<String> describe(KarpenterRelease base, KarpenterRelease head) {
        if (base.equals(head)) {
            return Optional.empty();
        }
        String versions =
                "hash versions: node pool " + nodePoolHashVersion(base).orElse("none") + " to "
                        + nodePoolHashVersion(head).orElse("none") + ", node class "
                        + nodeClassHashVersion(base).orElse("none") + " to "
                        + nodeClassHashVersion(head).orElse("none");
        String change = "Karpenter " + base + " to " + head + " (" + versions + "): ";
        if (versioned(head)) {
            return Optional.of(change + "drifts no node by itself: where a node's hash version differs from "
                    + head + "'s, Karpenter re-stamps its hash instead of drifting it (new defaults of hashed fields"
                    + " come with such a change)");
        }
        if (versioned(base)) {
            return Optional.of(change + "may drift every node: " + head + " has no hash versions and reads the"
                    + " newer hashes as changed (roll back only to a drift-safe patch: bin/upgrade-path)");
        }
        return Optional.of(change + "drifts every node whose hash " + head + " computes differently: releases before"
                + " 0.36 (and before the drift-safe patches) have no hash versions");
    }
}
