package dev.platform.karpenter.release;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The spec fields upstream moved when a pool or node class changed API generation: one table per generation change,
 * the facts taken from upstream's migration guides (v1beta1-migration: Provisioner and AWSNodeTemplate to NodePool
 * and EC2NodeClass; v1-migration: its "API Moves", renames and required fields). Paths start below {@code spec}.
 */
public final class FieldMoves {
    private FieldMoves() {}

    /** Which object of a generation holds a field: the pool (Provisioner, NodePool) or its node class. */
    public enum Holder {
        POOL,
        NODE_CLASS
    }

    /**
     * One field the older generation spells {@code from} and the newer one {@code to} (empty: no longer exists).
     *
     * @param change what else changes beyond the place (value form, defaults), or empty
     */
    public record Move(
            Holder fromHolder, List<String> from, Holder toHolder, Optional<List<String>> to, String change) {
        public Move {
            from = List.copyOf(from);
            to = to.map(List::copyOf);
        }

        /** Whether {@code spec} (a pool's or a node class's, as the user wrote it) sets this field, even to null. */
        public boolean setIn(Holder holder, Map<String, Object> spec) {
            return holder == fromHolder && new ValuePath(from).isSetIn(spec);
        }
    }

    /** The moves into generation {@code to} from the one before it. */
    public record Change(ApiGeneration from, ApiGeneration to, List<Move> moves) {
        public Change {
            moves = List.copyOf(moves);
        }

        /** The moves of the fields {@code spec} sets, in the table's order. */
        public List<Move> setIn(Holder holder, Map<String, Object> spec) {
            return moves.stream().filter(move -> move.setIn(holder, spec)).toList();
        }
    }

    private static final Change V1ALPHA5_TO_V1BETA1 = new Change(
            ApiGeneration.V1ALPHA5,
            ApiGeneration.V1BETA1,
            List.of(
                    pool(
                            path("ttlSecondsAfterEmpty"),
                            path("disruption", "consolidateAfter"),
                            "a duration such as 30s, with disruption.consolidationPolicy WhenEmpty"),
                    pool(
                            path("consolidation"),
                            path("disruption", "consolidationPolicy"),
                            "enabled = true becomes WhenUnderutilized"),
                    pool(
                            path("ttlSecondsUntilExpired"),
                            path("disruption", "expireAfter"),
                            "a duration such as 720h, or Never"),
                    pool(path("labels"), path("template", "metadata", "labels"), ""),
                    pool(path("annotations"), path("template", "metadata", "annotations"), ""),
                    pool(
                            path("requirements"),
                            path("template", "spec", "requirements"),
                            "the requirements v1alpha5 added by default are no longer added"),
                    pool(path("taints"), path("template", "spec", "taints"), ""),
                    pool(path("startupTaints"), path("template", "spec", "startupTaints"), ""),
                    pool(
                            path("kubeletConfiguration"),
                            path("template", "spec", "kubelet"),
                            "containerRuntime is no longer supported"),
                    pool(path("limits", "resources"), path("limits"), ""),
                    pool(
                            path("providerRef"),
                            path("template", "spec", "nodeClassRef"),
                            "names an EC2NodeClass; set from node_class"),
                    new Move(
                            Holder.POOL,
                            path("provider"),
                            Holder.NODE_CLASS,
                            Optional.of(List.of()),
                            "its fields are the node class's"),
                    nodeClass(
                            path("subnetSelector"),
                            path("subnetSelectorTerms"),
                            "a list of terms, each of tags or an id; comma-separated values become separate terms"),
                    nodeClass(
                            path("securityGroupSelector"),
                            path("securityGroupSelectorTerms"),
                            "a list of terms, each of tags, an id or a name; comma-separated values become separate terms"),
                    nodeClass(
                            path("amiSelector"),
                            path("amiSelectorTerms"),
                            "a list of terms, each of tags, an id, a name or an owner; AMI tag requirements are no longer supported"),
                    nodeClass(path("instanceProfile"), path("role"), "the node role; set by the project"),
                    new Move(
                            Holder.NODE_CLASS,
                            path("launchTemplate"),
                            Holder.NODE_CLASS,
                            Optional.empty(),
                            "unmanaged launch templates are no longer supported")));

    private static final Change V1BETA1_TO_V1 = new Change(
            ApiGeneration.V1BETA1,
            ApiGeneration.V1,
            List.of(
                    pool(
                            path("disruption", "expireAfter"),
                            path("template", "spec", "expireAfter"),
                            "changing it now drifts the nodes"),
                    pool(
                            path("disruption", "consolidationPolicy"),
                            path("disruption", "consolidationPolicy"),
                            "WhenUnderutilized is renamed WhenEmptyOrUnderutilized; consolidateAfter is required"),
                    new Move(
                            Holder.POOL,
                            path("template", "spec", "kubelet"),
                            Holder.NODE_CLASS,
                            Optional.of(path("kubelet")),
                            "pools that share a node class share its kubelet: one node class per kubelet"),
                    pool(
                            path("template", "spec", "nodeClassRef", "apiVersion"),
                            path("template", "spec", "nodeClassRef", "group"),
                            "set from node_class"),
                    nodeClass(
                            path("amiFamily"),
                            path("amiSelectorTerms"),
                            "a term alias = \"<family>@<version>\", e.g. al2023@latest, selects the family's AMIs"
                                    + " and stands alone; amiFamily stays beside other terms; amiSelectorTerms is"
                                    + " required")));

    private static final List<Change> ALL = List.of(V1ALPHA5_TO_V1BETA1, V1BETA1_TO_V1);

    /** Every generation change, oldest first. */
    public static List<Change> all() {
        return ALL;
    }

    /** The moves into {@code generation} from the one before, empty for the first generation. */
    public static Optional<Change> into(ApiGeneration generation) {
        return ALL.stream().filter(change -> change.to() == generation).findFirst();
    }

    private static Move pool(List<String> from, List<String> to, String change) {
        return new Move(Holder.POOL, from, Holder.POOL, Optional.of(to), change);
    }

    private static Move nodeClass(List<String> from, List<String> to, String change) {
        return new Move(Holder.NODE_CLASS, from, Holder.NODE_CLASS, Optional.of(to), change);
    }

    private static List<String> path(String... keys) {
        return Arrays.asList(keys);
    }
}
