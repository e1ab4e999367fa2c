package dev.platform.karpenter.config;

import java.util.List;
import java.util.Map;

/**
 * One node class (an AWSNodeTemplate on 0.30-0.32, an EC2NodeClass from 0.32 on), generation-neutral. The
 * top-level settings describe the node class "default"; each entry of node_classes describes another one, which
 * starts from what "default" gets from the typed settings.
 *
 * @param name      metadata.name, what pools name in node_class
 * @param amiFamily ami_family: the nodes' operating system
 * @param amiVersion ami_version: 1.x only, the AMI release of the v1 alias ("latest" or e.g. "v20240625")
 * @param discoveryTagKey   discovery_tag_key: the tag that selects its subnets and security groups
 * @param discoveryTagValue discovery_tag_value: its value (default: the cluster name)
 * @param tags      tags: also put on everything Karpenter launches with this class
 * @param spec      node_class_spec, or the entry's spec: upstream fields merged over what the settings produce
 */
public record NodeClassSettings(
        String name,
        AmiFamily amiFamily,
        String amiVersion,
        String discoveryTagKey,
        String discoveryTagValue,
        Map<String, String> tags,
        Map<String, Object> spec) {

    public static final String DEFAULT_NODE_CLASS = "default";

    /** The discovery tag as a selector of subnets and security groups. */
    public Map<String, String> discovery() {
        return Map.of(discoveryTagKey, discoveryTagValue);
    }

    /** The volumes of its family. */
    public List<BlockDeviceMapping> blockDevices() {
        return amiFamily.blockDevices();
    }
}
