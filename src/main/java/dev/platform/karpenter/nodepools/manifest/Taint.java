package dev.platform.karpenter.nodepools.manifest;

/** A node taint; an empty value is left out of the YAML. */
public record Taint(String key, String value, String effect) {}
