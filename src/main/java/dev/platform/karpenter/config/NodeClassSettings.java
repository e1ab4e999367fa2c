package dev.platform.karpenter.config;

import java.util.Map;
import java.util.Optional;

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
 * @param declaredIn where it is written: "" for the top-level settings, "node_classes[1]" for an entry
 * @param written   the typed settings written for this very class (not inherited), with their place: "ami_family"
 *                  or "node_classes[1].ami_family"; the top-level tags and discovery tag count for "default"
 * @param metadata  the entry's metadata (labels, annotations)
 */
public record NodeClassSettings(
        String name,
        AmiFamily amiFamily,
        String amiVersion,
        String discoveryTagKey,
        String discoveryTagValue,
        Map<String, String> tags,
        Map<String, Object> spec,
        String declaredIn,
        Map<String, String> written,
        ObjectMetadata metadata) {

    public static final String DEFAULT_NODE_CLASS = "default";

    /** The discovery tag as a selector of subnets and security groups. */
    public Map<String, String> discovery() {
        return Map.of(discoveryTagKey, discoveryTagValue);
    }

    /** Where its spec is written: node_class_spec, or node_classes[1].spec. */
    public String specSetting() {
        return declaredIn.isEmpty() ? SettingsCatalogue.NODE_CLASS_SPEC.key() : declaredIn + ".spec";
    }

    /** Where {@code setting} is written for this node class, if it is. */
    public Optional<String> written(Setting<?> setting) {
        return Optional.ofNullable(written.get(setting.key()));
    }

    /** The same node class with {@code family} (and its version) where a rule decides the family. */
    public NodeClassSettings withFamily(AmiFamily family, String version) {
        return new NodeClassSettings(
                name, family, version, discoveryTagKey, discoveryTagValue, tags, spec, declaredIn, written, metadata);
    }
}
