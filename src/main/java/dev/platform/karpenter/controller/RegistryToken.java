package dev.platform.karpenter.controller;

import imports.helm.provider.HelmProviderRegistry;

/**
 * A pull token for the registry the charts come from, read at plan time and only ever referenced, so its value
 * reaches the plan but never the synthesized configuration or an output.
 *
 * @param registryUrl the registry as the helm provider logs in to it (oci://HOST)
 * @param userName    the token's user name, a Terraform reference
 * @param password    the token itself, a Terraform reference
 */
record RegistryToken(String registryUrl, String userName, String password) {
    /** A helm provider registry login with this run's token; provider configuration is never stored in state. */
    HelmProviderRegistry helmRegistryLogin() {
        return HelmProviderRegistry.builder()
                .url(registryUrl)
                .username(userName)
                .password(password)
                .build();
    }
}
