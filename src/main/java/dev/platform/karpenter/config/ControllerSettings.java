package dev.platform.karpenter.config;

import java.util.List;
import java.util.Map;

/**
 * Settings of the Karpenter controller's Helm release.
 *
 * @param stsRegionalEndpoints sts_regional_endpoints: annotate the service account to use regional STS endpoints
 * @param replicas             controller_replicas (default 2, the chart's default)
 * @param resources            controller_resources: Kubernetes resource requests and limits, as an object
 * @param tolerations          controller_tolerations: Kubernetes tolerations for the controller pods
 * @param affinity             controller_affinity: Kubernetes affinity for the controller pods (empty: chart default)
 */
public record ControllerSettings(
        boolean stsRegionalEndpoints,
        int replicas,
        Map<String, Object> resources,
        List<Map<String, Object>> tolerations,
        Map<String, Object> affinity) {

    static ControllerSettings from(Settings settings) {
        int replicas = settings.integer("controller_replicas", 2);
        if (replicas < 1) {
            throw new ConfigException("controller_replicas must be at least 1, got " + replicas);
        }
        return new ControllerSettings(
                settings.bool("sts_regional_endpoints", false),
                replicas,
                settings.object("controller_resources"),
                settings.objectList("controller_tolerations"),
                settings.object("controller_affinity"));
    }
}
