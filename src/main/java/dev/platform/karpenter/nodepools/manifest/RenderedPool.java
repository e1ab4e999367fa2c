package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolCapacity;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pool as it is applied (Provisioner or NodePool), with the node class it launches with. What the project derives
 * from a pool (the capacity types it may launch, hence the spot role and the reserved-capacity gate; its operating
 * system and architectures) is read from {@link #object()}.
 *
 * @param settings         where it was written (its name, its place for messages)
 * @param object           the final object
 * @param nodeClass        the node class its object references
 * @param requirementsPath where the object holds its node requirements
 * @param defaulted        the requirements the release's admission webhook adds to it (ApiGeneration#admissionDefaults),
 *                         which no setting wrote: the last of its requirements, in this order
 */
public record RenderedPool(
        PoolSettings settings,
        KubernetesObject<Map<String, Object>> object,
        RenderedNodeClass nodeClass,
        List<String> requirementsPath,
        List<ApiGeneration.AdmissionDefault> defaulted) {

    public String name() {
        return settings.name();
    }

    /** The object's node requirements: each a map of key, operator, values (minValues where written). */
    public List<Map<String, Object>> requirements() {
        List<Map<String, Object>> requirements = new ArrayList<>();
        if (SpecRules.at(object.spec(), requirementsPath) instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> map) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> requirement = (Map<String, Object>) map;
                    requirements.add(requirement);
                }
            }
        }
        return List.copyOf(requirements);
    }

    /** Whether the requirements admit nodes whose label {@code key} has {@code value}; ANDed, as Karpenter reads them. */
    public boolean allows(String key, String value) {
        return requirementsOn(key).stream().allMatch(requirement -> switch (requirement.operator()) {
            case "In" -> requirement.values().contains(value);
            case "NotIn" -> !requirement.values().contains(value);
            case "Exists" -> true;
            default -> false; // DoesNotExist, Gt, Lt: no such label value
        });
    }

    /** The capacity types it may launch, of "reserved", "spot" and "on-demand". */
    public Set<String> capacityTypes() {
        return PoolCapacity.allowedBy(requirementsOn(PoolCapacity.LABEL));
    }

    /** Whether it is a static pool (spec.replicas): a fixed number of nodes, limited by limits.nodes only. */
    public boolean isStatic() {
        return object.spec().get("replicas") != null;
    }

    private List<PoolCapacity.Requirement> requirementsOn(String key) {
        List<PoolCapacity.Requirement> on = new ArrayList<>();
        for (Map<String, Object> requirement : requirements()) {
            if (key.equals(requirement.get("key")) && requirement.get("operator") instanceof String operator) {
                List<String> values = new ArrayList<>();
                if (requirement.get("values") instanceof List<?> written) {
                    written.forEach(value -> values.add(String.valueOf(value)));
                }
                on.add(new PoolCapacity.Requirement(name(), operator, List.copyOf(values)));
            }
        }
        return on;
    }
}
