package dev.platform.karpenter.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The capacity types a pool may launch, read from the requirements its object will carry on the label
 * karpenter.sh/capacity-type: capacity_types and node_requirements, unless its spec (node_pool_spec, a node_pools
 * entry's spec) replaces the requirements list, which a list in a spec does. Requirements on one key are ANDed, as
 * Karpenter reads them; without any on the key a pool may launch every capacity type (Karpenter 1.x, and 0.x's
 * defaulting to on-demand only makes the answer err towards spot, whose service-linked role is harmless).
 *
 * <p>The spec is read before the release's CRD checks it, so whatever does not have the shape of a requirement is
 * left for that check to refuse.
 */
public final class PoolCapacity {
    public static final String LABEL = "karpenter.sh/capacity-type";
    public static final String SPOT = "spot";
    static final String ON_DEMAND = "on-demand";
    public static final String RESERVED = "reserved";
    private static final List<String> EVERY = List.of(RESERVED, SPOT, ON_DEMAND);

    /** Where the requirements are in a pool spec: NodePool (v1beta1, v1), Provisioner (v1alpha5). */
    private static final List<List<String>> SPEC_REQUIREMENTS =
            List.of(List.of("template", "spec", "requirements"), List.of("requirements"));

    /**
     * One requirement on the capacity type label.
     *
     * @param where its place in the settings, for messages: "node_pool_spec.template.spec.requirements[2]"
     */
    public record Requirement(String where, String operator, List<String> values) {}

    private PoolCapacity() {}

    /**
     * The capacity types a pool whose object carries {@code requirements} (those on the capacity type label) may
     * launch, of "reserved", "spot" and "on-demand".
     */
    public static Set<String> allowedBy(List<Requirement> requirements) {
        Set<String> types = new LinkedHashSet<>(EVERY);
        for (Requirement requirement : requirements) {
            switch (requirement.operator()) {
                case "In" -> types.retainAll(requirement.values());
                case "NotIn" -> requirement.values().forEach(types::remove);
                case "Exists" -> {}
                default -> types.clear(); // DoesNotExist, Gt, Lt: no node has such a capacity type
            }
        }
        return types;
    }

    /** The requirements on the capacity type label the pool's object will carry. */
    static List<Requirement> requirements(PoolSettings pool, String specSetting) {
        for (List<String> path : SPEC_REQUIREMENTS) {
            Optional<Object> written = written(pool.spec(), path);
            if (written.isPresent()) {
                return fromSpec(written.get(), specSetting + "." + String.join(".", path));
            }
        }
        List<Requirement> typed = new ArrayList<>();
        typed.add(new Requirement(SettingsCatalogue.CAPACITY_TYPES.key(), "In", pool.capacityTypes()));
        List<NodeRequirement> extra = pool.requirements();
        for (int i = 0; i < extra.size(); i++) {
            if (extra.get(i).key().equals(LABEL)) {
                typed.add(new Requirement(
                        SettingsCatalogue.NODE_REQUIREMENTS.key() + "[" + i + "]",
                        extra.get(i).operator(),
                        extra.get(i).values()));
            }
        }
        return typed;
    }

    /**
     * What the spec writes at {@code path}, empty where it leaves the typed value: null (removed) where the spec
     * removes it or a map on the way.
     */
    private static Optional<Object> written(Map<String, Object> spec, List<String> path) {
        Object at = spec;
        for (String key : path) {
            if (!(at instanceof Map<?, ?> map) || !map.containsKey(key)) {
                return Optional.empty();
            }
            at = map.get(key);
            if (at == null) {
                return Optional.of(List.of());
            }
        }
        return Optional.of(at);
    }

    private static List<Requirement> fromSpec(Object list, String where) {
        List<Requirement> requirements = new ArrayList<>();
        if (!(list instanceof List<?> items)) {
            return requirements;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Map<?, ?> item
                    && LABEL.equals(item.get("key"))
                    && item.get("operator") instanceof String operator) {
                List<String> values = new ArrayList<>();
                if (item.get("values") instanceof List<?> written) {
                    written.forEach(value -> values.add(String.valueOf(value)));
                }
                requirements.add(new Requirement(where + "[" + i + "]", operator, List.copyOf(values)));
            }
        }
        return requirements;
    }
}
