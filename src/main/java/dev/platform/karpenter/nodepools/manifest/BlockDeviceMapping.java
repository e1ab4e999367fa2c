package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import java.util.List;

/** An EBS volume of the node class, the same shape in AWSNodeTemplate and EC2NodeClass. */
public record BlockDeviceMapping(String deviceName, Ebs ebs) {

    public record Ebs(String volumeType, String volumeSize, boolean encrypted, boolean deleteOnTermination) {}

    /**
     * Bottlerocket's two volumes, as upstream's Bottlerocket example and Karpenter's defaults: a 4Gi OS volume
     * and a 20Gi data volume for images, logs and ephemeral storage; encrypted, as Karpenter's defaults are.
     */
    static List<BlockDeviceMapping> bottlerocket() {
        return List.of(
                new BlockDeviceMapping("/dev/xvda", new Ebs("gp3", "4Gi", true, true)),
                new BlockDeviceMapping("/dev/xvdb", new Ebs("gp3", "20Gi", true, true)));
    }

    /** Bottlerocket's volumes, or none: the other families' AMIs bring suitable defaults. */
    static List<BlockDeviceMapping> forFamily(AmiFamily family) {
        return family == AmiFamily.BOTTLEROCKET ? bottlerocket() : List.of();
    }
}
