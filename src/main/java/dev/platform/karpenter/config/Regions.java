package dev.platform.karpenter.config;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.regions.GeneratedPartitionMetadataProvider;
import software.amazon.awssdk.regions.PartitionMetadataProvider;
import software.amazon.awssdk.regions.Region;

/**
 * AWS regions and partitions as the AWS SDK's own endpoint metadata knows them (software.amazon.awssdk:regions), so
 * that a real new region passes and a typo fails. Global pseudo-regions (aws-global, aws-cn-global, ...) are left out:
 * a cluster is never there.
 */
public final class Regions {
    private static final Set<String> REGIONS = Region.regions().stream()
            .filter(region -> !region.isGlobalRegion())
            .map(Region::id)
            .collect(Collectors.toUnmodifiableSet());

    /**
     * The partitions alone. PartitionMetadata.of would first load the endpoint metadata of every AWS service (some
     * 400 classes, the largest fixed cost of a synth) to answer the same question.
     */
    private static final PartitionMetadataProvider PARTITIONS = new GeneratedPartitionMetadataProvider();

    /** Looked up once per region: each cluster's policies ask for it several times. */
    private static final Map<String, String> DNS_SUFFIXES = new ConcurrentHashMap<>();

    private Regions() {}

    static void requireValid(String key, String region) {
        ConfigException.require(
                REGIONS.contains(region),
                key,
                "must be an AWS region such as us-east-1 or eusc-de-east-1 (one the AWS SDK's partition metadata lists)",
                region);
    }

    /** The partition of a known region: "aws", "aws-cn", "aws-us-gov", "aws-eusc", ... */
    public static String partition(String region) {
        return PARTITIONS.partitionMetadata(Region.of(region)).id();
    }

    /**
     * The DNS suffix of a known region's partition ("amazonaws.com", "amazonaws.com.cn", ...): service principals
     * such as EC2's are {@code ec2.<suffix>} in every partition.
     */
    public static String dnsSuffix(String region) {
        return DNS_SUFFIXES.computeIfAbsent(
                region, known -> PARTITIONS.partitionMetadata(Region.of(known)).dnsSuffix());
    }

    /** An ARN in a setting must be in the region's partition: an aws-cn role cannot serve a cluster in us-east-1. */
    static void requireArnInPartition(String key, String value, String region) {
        if (!value.startsWith("arn:")) {
            return;
        }
        String partition = value.split(":", 3)[1];
        String expected = partition(region);
        ConfigException.require(
                partition.equals(expected),
                () -> key + " is an ARN of partition " + ConfigException.quote(partition) + ", but region " + region
                        + " is in partition \"" + expected + "\": it must start with arn:" + expected + ":");
    }
}
