package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolSettings;
import java.util.ArrayList;
import java.util.List;

/** The requirements of a pool, the same in both generations: capacity type, architecture, OS, instance shape. */
final class PoolRequirements {
    private PoolRequirements() {
    }

    static List<Requirement> of(PoolSettings pool) {
        List<Requirement> requirements = new ArrayList<>();
        requirements.add(Requirement.in(Requirement.CAPACITY_TYPE, pool.capacityTypes()));
        requirements.add(Requirement.in(Requirement.ARCH, pool.architectures()));
        requirements.add(Requirement.in(Requirement.OS, List.of("linux")));
        if (!pool.instanceCategories().isEmpty()) {
            requirements.add(Requirement.in(Requirement.INSTANCE_CATEGORY, pool.instanceCategories()));
        }
        // Karpenter offers Gt, not Gte, in every supported release: "at least N" is "greater than N-1".
        requirements.add(new Requirement(Requirement.INSTANCE_GENERATION, "Gt",
                List.of(String.valueOf(pool.instanceGenerationMin() - 1))));
        pool.requirements().forEach(r -> requirements.add(new Requirement(r.key(), r.operator(), r.values())));
        return List.copyOf(requirements);
    }

    static List<Taint> taints(PoolSettings pool) {
        return pool.taints().stream().map(t -> new Taint(t.key(), t.value(), t.effect())).toList();
    }
}
