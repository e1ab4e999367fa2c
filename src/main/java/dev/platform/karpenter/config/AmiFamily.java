package dev.platform.karpenter.config;

import dev.platform.karpenter.versions.NodePoolRules;

/** Operating system of the nodes Karpenter launches. */
public enum AmiFamily implements SettingValue {
    BOTTLEROCKET(NodePoolRules.BOTTLEROCKET),
    AL2023(NodePoolRules.AL2023),
    AL2(NodePoolRules.AL2);

    private final String setting;

    AmiFamily(String setting) {
        this.setting = setting;
    }

    /** The spelling Karpenter and the tfvars use. */
    @Override
    public String setting() {
        return setting;
    }
}
