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

    /** The releases whose node class accepts this family (NodePoolRules: AL2023 is younger than the others). */
    @Override
    public ReleaseSpan releases() {
        return this == AL2023
                ? ReleaseSpan.where(apis -> NodePoolRules.of(apis).amiFamilies().contains(setting))
                : ReleaseSpan.ALL;
    }
}
