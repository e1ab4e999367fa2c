package dev.platform.karpenter.config;

import java.util.Map;

/**
 * Settings of the default node pool (Provisioner on 0.x, NodePool on 1.x) and its node class.
 *
 * @param amiFamily          ami_family: Bottlerocket (default), AL2023 or AL2
 * @param discoveryTagKey    discovery_tag_key: tag that marks the subnets and security groups nodes use
 * @param discoveryTagValue  discovery_tag_value: its value (default: the cluster name)
 */
public record NodePoolSettings(AmiFamily amiFamily, String discoveryTagKey, String discoveryTagValue) {

    static NodePoolSettings from(Settings settings, String clusterName) {
        return new NodePoolSettings(
                AmiFamily.parse("ami_family", settings.string("ami_family", AmiFamily.BOTTLEROCKET.setting())),
                settings.string("discovery_tag_key", "karpenter.sh/discovery"),
                settings.string("discovery_tag_value", clusterName));
    }
}
