package dev.platform.karpenter.config;

import java.util.Locale;

/** How the Karpenter controller's pods get AWS credentials. */
public enum ControllerIdentity implements SettingChoice {
    /** IAM roles for service accounts: the role trusts the cluster's OIDC provider (the seed's choice). */
    IRSA,
    /** EKS Pod Identity: the role trusts pods.eks.amazonaws.com and an association binds it to the service account. */
    POD_IDENTITY;

    /** The tfvars spell the constant in lower case: "irsa", "pod_identity". */
    @Override
    public String setting() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Pod Identity needs a controller whose AWS SDK knows it. */
    @Override
    public ReleaseSpan releases() {
        return this == POD_IDENTITY ? ReleaseSpan.where(apis -> apis.release().supportsPodIdentity()) : ReleaseSpan.ALL;
    }
}
