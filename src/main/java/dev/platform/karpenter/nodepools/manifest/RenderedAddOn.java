package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AddOnObject;
import java.util.Map;

/**
 * An add-on kind's object (a NodeOverlay) as it is applied, beside the entry it was written as.
 *
 * @param settings the entry of its setting (its kind, name and place for messages)
 * @param object   the final object
 */
public record RenderedAddOn(AddOnObject settings, KubernetesObject<Map<String, Object>> object) {}
