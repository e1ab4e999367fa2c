package dev.platform.karpenter.config;

/** An EBS volume of a node class, the same shape in AWSNodeTemplate and both EC2NodeClass generations. */
public record BlockDeviceMapping(String deviceName, Ebs ebs) {

    public record Ebs(String volumeType, String volumeSize, boolean encrypted, boolean deleteOnTermination) {}

    /** An encrypted gp3 volume deleted with its instance, as Karpenter's defaults are. */
    static BlockDeviceMapping gp3(String deviceName, String size) {
        return new BlockDeviceMapping(deviceName, new Ebs("gp3", size, true, true));
    }
}
