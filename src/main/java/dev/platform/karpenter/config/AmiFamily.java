package dev.platform.karpenter.config;

import dev.platform.karpenter.release.NodePoolRules;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Operating system of the nodes Karpenter launches. */
public enum AmiFamily {
    BOTTLEROCKET(NodePoolRules.BOTTLEROCKET),
    AL2023(NodePoolRules.AL2023),
    AL2(NodePoolRules.AL2);

    private final String setting;

    AmiFamily(String setting) {
        this.setting = setting;
    }

    /** The spelling Karpenter and the tfvars use. */
    public String setting() {
        return setting;
    }

    static AmiFamily parse(String key, String value) {
        for (AmiFamily family : values()) {
            if (family.setting.equals(value)) {
                return family;
            }
        }
        throw new ConfigException(key + " must be one of " + Arrays.stream(values()).map(f -> "\"" + f.setting + "\"")
                .collect(Collectors.joining(", ")) + ", got " + ConfigException.quote(value) + "");
    }
}
