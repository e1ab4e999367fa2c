package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.BlockDeviceMapping;
import dev.platform.karpenter.config.NodeClassSettings;
import java.util.List;
import java.util.Map;

/**
 * The EC2NodeClass spec of v1beta1 and v1, which share its shape: v1beta1 names the AMI family (amiFamily), v1 an
 * AMI alias (amiSelectorTerms); the other is null and left out of the YAML.
 */
public record Ec2NodeClassSpec(
        String amiFamily,
        String role,
        List<AmiSelectorTerm> amiSelectorTerms,
        List<SelectorTerm> subnetSelectorTerms,
        List<SelectorTerm> securityGroupSelectorTerms,
        List<BlockDeviceMapping> blockDeviceMappings,
        Map<String, String> tags) {

    public record AmiSelectorTerm(String alias) {}

    public record SelectorTerm(Map<String, String> tags) {}

    /** Subnets or security groups carrying the node class's discovery tag. */
    static List<SelectorTerm> discovery(Map<String, String> tags) {
        return List.of(new SelectorTerm(tags));
    }

    /**
     * A node class's EC2NodeClass spec as v1beta1 and v1 share it: the node role, subnets and security groups by
     * its discovery tags, its block devices and tags; the AMI is chosen by family (v1beta1) or by alias (v1).
     */
    static Ec2NodeClassSpec of(
            NodeClassSettings nodeClass, String role, String amiFamily, List<AmiSelectorTerm> amiSelectorTerms) {
        return new Ec2NodeClassSpec(
                amiFamily,
                role,
                amiSelectorTerms,
                discovery(nodeClass.discovery()),
                discovery(nodeClass.discovery()),
                nodeClass.amiFamily().blockDevices(),
                nodeClass.tags());
    }
}
