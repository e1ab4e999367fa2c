package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.PoolSettings;

/**
 * A pool's typed settings as SpecRules lets them into its object: the operating system its requirements name (that
 * of its node class), and whether the typed limits are written (not for a static pool).
 */
record TypedPool(PoolSettings settings, AmiFamily.Os os, boolean limits) {}
