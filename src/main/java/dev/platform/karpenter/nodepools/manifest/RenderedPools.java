package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.PoolCapacity;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The model of a cluster's pools and node classes: each built once, in every API generation the release declares,
 * as the final object that is applied (typed settings as {@link SpecRules} lets them, then the spec). Everything
 * derived from the pools is read from these objects: the AMI families (volumes, guards), the operating systems, the
 * capacity types (the spot service-linked role, the reserved-capacity gate). Beside them, the add-on kinds' objects
 * (node_overlays): {@link #objects()} is everything the pools' Helm release and plain file hold, in their order.
 *
 * <p>Building fails with a one-line {@link dev.platform.karpenter.config.ConfigException} where the typed settings
 * and a spec contradict each other ({@link SpecRules}); the configuration's load runs it first
 * ({@link SpecCheck#requireValid}), so stacks only build what passed.
 */
public final class RenderedPools {
    /**
     * The node role in a model built for what it derives and for the CRD check, as the API server sees it once
     * Terraform resolved the reference (no rule reads the role).
     */
    static final String ANY_ROLE = "KarpenterNodeRole";

    /** One declared generation's objects. */
    public record Generation(
            GenerationManifests manifests, List<RenderedPool> pools, List<RenderedNodeClass> nodeClasses) {
        /** The pools in the settings' order, then the node classes, "default" first. */
        public List<KubernetesObject<Map<String, Object>>> objects() {
            List<KubernetesObject<Map<String, Object>>> objects = new ArrayList<>();
            pools.forEach(pool -> objects.add(pool.object()));
            nodeClasses.forEach(nodeClass -> objects.add(nodeClass.object()));
            return List.copyOf(objects);
        }
    }

    private record Derived(WeakReference<ClusterConfig> config, RenderedPools pools) {}

    /** A few configurations per process (one per cluster of a synth): a list is enough. */
    private static final List<Derived> DERIVED = new ArrayList<>();

    private final List<Generation> generations;
    private final List<RenderedAddOn> addOns;

    private RenderedPools(List<Generation> generations, List<RenderedAddOn> addOns) {
        this.generations = List.copyOf(generations);
        this.addOns = List.copyOf(addOns);
    }

    /** The model, its node classes naming {@code nodeRoleName} (a Terraform reference is fine). */
    public static RenderedPools of(ClusterConfig config, String nodeRoleName) {
        List<Generation> generations = new ArrayList<>();
        for (GenerationManifests generation :
                NodePoolManifests.forApis(config.apis()).generations()) {
            generations.add(generation.build(config.poolsAndClasses(), nodeRoleName));
        }
        return new RenderedPools(
                generations,
                config.poolsAndClasses().addOns().stream()
                        .map(addOn -> new RenderedAddOn(addOn, GenerationManifests.addOn(addOn)))
                        .toList());
    }

    /**
     * The model for what it derives: facts, not manifests to apply. Built once per configuration (every stack of a
     * cluster asks: guards, IAM, controller values), remembered by identity while the configuration lives.
     */
    public static RenderedPools of(ClusterConfig config) {
        synchronized (DERIVED) {
            DERIVED.removeIf(entry -> entry.config().get() == null);
            for (Derived entry : DERIVED) {
                if (entry.config().get() == config) {
                    return entry.pools();
                }
            }
        }
        RenderedPools pools = of(config, ANY_ROLE);
        synchronized (DERIVED) {
            DERIVED.add(new Derived(new WeakReference<>(config), pools));
        }
        return pools;
    }

    /** Each declared generation, oldest first (0.32 before retiring: the Provisioners, then the NodePools). */
    public List<Generation> generations() {
        return generations;
    }

    /**
     * The pools of the newest declared generation, each with its node class: the objects Karpenter will read once any
     * upgrade in progress is done. The entry point for whatever reads the pools (requirements, family, system).
     */
    public List<RenderedPool> pools() {
        return generations.get(generations.size() - 1).pools();
    }

    /** The node classes of the newest declared generation. */
    public List<RenderedNodeClass> nodeClasses() {
        return generations.get(generations.size() - 1).nodeClasses();
    }

    /**
     * Everything applied: every declared generation's pools and node classes, oldest generation first, then the
     * add-on kinds' objects (node_overlays...). The pools' Helm release and the plain file hold exactly these.
     */
    public List<KubernetesObject<Map<String, Object>>> objects() {
        List<KubernetesObject<Map<String, Object>>> objects = new ArrayList<>();
        generations.forEach(generation -> objects.addAll(generation.objects()));
        addOns.forEach(addOn -> objects.add(addOn.object()));
        return List.copyOf(objects);
    }

    /** The add-on kinds' objects, kind by kind, each in its setting's order. */
    public List<RenderedAddOn> addOns() {
        return addOns;
    }

    /** The families of the AMIs the node classes' objects boot (imageFamily), each once, in the order of the classes. */
    public List<AmiFamily> imageFamilies() {
        return generations.stream()
                .flatMap(generation -> generation.nodeClasses().stream())
                .map(RenderedNodeClass::imageFamily)
                .distinct()
                .toList();
    }

    /** Whether any pool's object may launch spot capacity (the account then needs EC2's Spot service-linked role). */
    public boolean allowsSpot() {
        return anyPool(pool -> pool.capacityTypes().contains(PoolCapacity.SPOT));
    }

    /** Whether any pool's object may launch into capacity reservations (capacity type "reserved"). */
    public boolean allowsReserved() {
        return anyPool(pool -> pool.capacityTypes().contains(PoolCapacity.RESERVED));
    }

    /** Whether any node class launches Windows nodes (the cluster then needs Windows support, and its access entry). */
    public boolean launchesWindows() {
        return generations.stream()
                .flatMap(generation -> generation.nodeClasses().stream())
                .anyMatch(nodeClass -> nodeClass.os() == AmiFamily.Os.WINDOWS);
    }

    private boolean anyPool(Predicate<RenderedPool> test) {
        return generations.stream()
                .flatMap(generation -> generation.pools().stream())
                .anyMatch(test);
    }
}
