package dev.platform.karpenter.controller;

import imports.helm.provider.HelmProviderRegistry;

/**
 * A pull token for the registry the charts come from, read at plan time and only ever referenced, so its value
 * reaches the plan but never the synthesized configuration or an output.
 */
interface RegistryToken {
    String userName();

    String password();

    /** A helm provider registry login with this run's token; provider configuration is never stored in state. */
    HelmProviderRegistry helmRegistryLogin();
}
