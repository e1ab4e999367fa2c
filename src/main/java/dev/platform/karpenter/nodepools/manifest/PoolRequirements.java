package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What every generation says the same way about a pool: requirements (capacity type, architecture, OS, instance shape), limits, taints. */
final class PoolRequirements {
    private PoolRequirements() {}

    /** The requirements of {@code typed}: the operating system is that of its node class (SpecRules). */
    static List<Requirement> of(TypedPool typed) {
        PoolSettings pool = typed.settings();
        List<Requirement> requirements = new ArrayList<>();
        requirements.add(Requirement.in(Requirement.CAPACITY_TYPE, pool.capacityTypes()));
        requirements.add(Requirement.in(Requirement.ARCH, pool.architectures()));
        requirements.add(Requirement.in(Requirement.OS, List.of(typed.os().label())));
        if (!pool.instanceCategories().isEmpty()) {
            requirements.add(Requirement.in(Requirement.INSTANCE_CATEGORY, pool.instanceCategories()));
        }
        // Karpenter offers Gt, not Gte, in every supported release: "at least N" is "greater than N-1".
        requirements.add(new Requirement(
                Requirement.INSTANCE_GENERATION, "Gt", List.of(String.valueOf(pool.instanceGenerationMin() - 1))));
        pool.requirements().forEach(r -> requirements.add(new Requirement(r.key(), r.operator(), r.values())));
        return List.copyOf(requirements);
    }

    /** The pool's limits, the same keys in every generation; none where SpecRules lets them step aside. */
    static Map<String, Object> limits(TypedPool typed) {
        PoolSettings pool = typed.settings();
        Map<String, Object> limits = new LinkedHashMap<>();
        if (!typed.limits()) {
            return limits;
        }
        limits.put("cpu", pool.cpuLimit());
        limits.put("memory", pool.memoryLimit());
        return limits;
    }

    static List<Taint> taints(PoolSettings pool) {
        return pool.taints().stream()
                .map(t -> new Taint(t.key(), t.value(), t.effect()))
                .toList();
    }
}
