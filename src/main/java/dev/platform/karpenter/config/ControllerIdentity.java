package dev.platform.karpenter.config;

/** How the Karpenter controller's pods get AWS credentials. */
public enum ControllerIdentity {
    /** IAM roles for service accounts: the role trusts the cluster's OIDC provider (the seed's choice). */
    IRSA("irsa"),
    /** EKS Pod Identity: the role trusts pods.eks.amazonaws.com and an association binds it to the service account. */
    POD_IDENTITY("pod_identity");

    private final String setting;

    ControllerIdentity(String setting) {
        this.setting = setting;
    }

    public String setting() {
        return setting;
    }

    static ControllerIdentity parse(String key, String value) {
        for (ControllerIdentity identity : values()) {
            if (identity.setting.equals(value)) {
                return identity;
            }
        }
        throw new ConfigException(key + " must be \"irsa\" or \"pod_identity\", got " + ConfigException.quote(value) + "");
    }
}
