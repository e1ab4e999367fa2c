package dev.platform.karpenter.nodepools.manifest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.NodePoolRules;
import dev.platform.karpenter.release.ValuePath;
import dev.platform.karpenter.schema.ReleaseSchemas;
import dev.platform.karpenter.schema.Violation;
import java.util.List;
import java.util.Map;

/**
 * The upstream fields users write (node_pool_spec, node_class_spec, the spec of node_pools and node_classes
 * entries) checked at synth against the CRDs of the release being deployed, in every generation it declares: each
 * pool and node class that has a spec is rendered as it would be applied and validated as the API server would
 * (schema and CEL rules). Fields the project owns are refused first, with the reason. Objects without a spec are
 * what the typed settings produce, which the tests validate for every release.
 */
public final class SpecCheck {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SpecCheck() {}

    /**
     * Fails on the first spec field the release refuses, in one line naming the setting and the field, e.g.
     * {@code node_pool_spec.disruption.budgets[0].nodes: "150%" does not match ... (NodePool, Karpenter 1.10.2)}.
     */
    public static void requireValid(ClusterConfig config) {
        requireValidSpecs(config);
        requireValidKeys(config);
    }

    /**
     * Every rendered pool and node class, in each generation the release declares, through {@link ObjectKeys}:
     * whatever wrote a key, it is checked as its consumer checks it. A spec's path names the spec's setting; keys of
     * the typed settings were checked as they were read.
     */
    private static void requireValidKeys(ClusterConfig config) {
        for (RenderedPools.Generation generation : RenderedPools.of(config).generations()) {
            for (RenderedPool pool : generation.pools()) {
                String setting = pool.settings().specSetting();
                ObjectKeys.require(pool.object(), path -> place(setting, path));
            }
            for (RenderedNodeClass nodeClass : generation.nodeClasses()) {
                String setting = nodeClass.settings().specSetting();
                ObjectKeys.require(nodeClass.object(), path -> place(setting, path));
            }
        }
    }

    /** A path from the object, [spec, template, ...], as the spec setting names it: node_pool_spec.template... */
    private static String place(String specSetting, List<String> path) {
        return path.size() > 1 && path.get(0).equals("spec")
                ? specSetting + "." + String.join(".", path.subList(1, path.size()))
                : specSetting + "." + String.join(".", path);
    }

    private static void requireValidSpecs(ClusterConfig config) {
        PoolsAndNodeClasses settings = config.poolsAndClasses();
        List<GenerationManifests> generations =
                NodePoolManifests.forApis(config.apis()).generations();
        for (GenerationManifests generation : generations) {
            settings.pools()
                    .forEach(pool -> requireNotOwned(pool.specSetting(), pool.spec(), generation.ownedPoolFields()));
            settings.nodeClasses()
                    .forEach(nodeClass -> requireNotOwned(
                            nodeClass.specSetting(), nodeClass.spec(), generation.ownedNodeClassFields()));
        }
        // Building the objects applies the rules between typed settings and specs (SpecRules).
        RenderedPools rendered = RenderedPools.of(config);
        boolean anySpec =
                settings.pools().stream().anyMatch(pool -> !pool.spec().isEmpty())
                        || settings.nodeClasses().stream()
                                .anyMatch(nodeClass -> !nodeClass.spec().isEmpty())
                        || !settings.addOns().isEmpty();
        if (!anySpec) {
            return;
        }
        ReleaseSchemas schemas = ReleaseSchemas.of(config.release());
        for (RenderedPools.Generation generation : rendered.generations()) {
            // Named where the release declares a generation other than its own (0.32 beside v1alpha5, 1.0 keeping
            // v1beta1), so the line says which one refused.
            ApiGeneration api = generation.manifests().generation();
            String kindSuffix = api == config.release().apiGeneration() ? "" : " " + DeclaredApis.spelling(api);
            for (RenderedPool pool : generation.pools()) {
                if (!pool.settings().spec().isEmpty()) {
                    requireAccepted(schemas, pool.object(), pool.settings().specSetting(), config, kindSuffix);
                }
            }
            for (RenderedNodeClass nodeClass : generation.nodeClasses()) {
                if (!nodeClass.settings().spec().isEmpty()) {
                    requireAccepted(
                            schemas, nodeClass.object(), nodeClass.settings().specSetting(), config, kindSuffix);
                }
            }
        }
        for (RenderedAddOn addOn : rendered.addOns()) {
            requireAccepted(schemas, addOn.object(), addOn.settings().where() + ".spec", config, "");
            if (addOn.settings().kind() == AddOnKind.NODE_OVERLAY) {
                requireRuntimeValidOverlay(addOn, config);
            }
        }
    }

    /** What Karpenter's runtime validation of a NodeOverlay refuses beyond its CRD: see NodePoolRules. */
    private static void requireRuntimeValidOverlay(RenderedAddOn overlay, ClusterConfig config) {
        Object capacity = overlay.object().spec().get("capacity");
        if (capacity instanceof Map<?, ?> resources) {
            for (Object resource : resources.keySet()) {
                if (NodePoolRules.OVERLAY_REFUSED_RESOURCES.contains(String.valueOf(resource))) {
                    throw new ConfigException(overlay.settings().where() + ".spec.capacity may not set "
                            + ConfigException.quote(String.valueOf(resource))
                            + ": the instance types report it, and Karpenter applies such an overlay nowhere (Karpenter "
                            + config.release() + ")");
                }
            }
        }
    }

    private static void requireNotOwned(String setting, Map<String, Object> spec, Map<List<String>, String> owned) {
        owned.forEach((path, reason) -> {
            // Written even as null: removing an owned field is changing it.
            if (new ValuePath(path).isSetIn(spec)) {
                throw new ConfigException(setting + "." + String.join(".", path) + " " + reason);
            }
        });
    }

    private static void requireAccepted(
            ReleaseSchemas schemas,
            KubernetesObject<Map<String, Object>> object,
            String setting,
            ClusterConfig config,
            String kindSuffix) {
        List<Violation> violations = schemas.validateSpec(
                object.apiVersion(), object.kind(), object.metadata().name(), JSON.valueToTree(object.spec()));
        if (violations.isEmpty()) {
            return;
        }
        Violation first = violations.get(0);
        String field = first.path().isEmpty() ? setting : setting + "." + first.path();
        String suffix = " (" + object.kind() + kindSuffix + ", Karpenter " + config.release() + ")";
        String message = first.message();
        // The line's end names the kind and release: shorten the message, not that (room for the file's name).
        int room = ConfigException.MAX_LENGTH - 60 - field.length() - suffix.length();
        if (message.length() > room) {
            message = message.substring(0, Math.max(20, room - 3)) + "...";
        }
        throw new ConfigException(field + ": " + message + suffix);
    }
}
