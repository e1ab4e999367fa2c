package dev.platform.karpenter.adopt;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.SettingsCatalogue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What an old installation holds, as bin/adopt reports it: the settings that make the project's names equal to the
 * adopted ones, the adopt entries (import ids), the old root's addresses to forget, what was found, what is left
 * out and why, and the steps that follow from it.
 */
final class Findings {
    /** A Kubernetes namespace (a DNS label) and one of the two charts' release names. */
    private static final Pattern HELM_CLI_RELEASE =
            Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?/(karpenter|karpenter-crd)");

    static final String DEFAULT_NAMESPACE =
            SettingsCatalogue.KARPENTER_NAMESPACE.defaultValue().orElseThrow();
    static final String DEFAULT_SERVICE_ACCOUNT =
            SettingsCatalogue.KARPENTER_SERVICE_ACCOUNT.defaultValue().orElseThrow();

    final String cluster;
    final String source;
    /** Settings other than adopt, by key, as HCL literals. */
    final Map<String, String> settings = new LinkedHashMap<>();
    /** adopt's entries by key: a String, a List of Strings or a Map of Strings. */
    final Map<String, Object> adopt = new LinkedHashMap<>();

    final Map<String, String> eventRules = new TreeMap<>();
    final List<String> helmReleases = new ArrayList<>();
    final List<String> nodePoolObjects = new ArrayList<>();
    /** Old root resource addresses (without index) that removed blocks forget. */
    final List<String> removed = new ArrayList<>();

    final List<String> found = new ArrayList<>();
    final List<String> notMapped = new ArrayList<>();
    /** IAM policies of the old tool, left attached until the project's own are: deleted by a step. */
    final List<String> oldPolicyArns = new ArrayList<>();

    final List<String> checks = new ArrayList<>();
    /** The controller's namespace: karpenter_namespace, printed when it is not the default. */
    String namespace = DEFAULT_NAMESPACE;
    /** Whom the adopted controller role trusts; null without one from a Terraform state. */
    ControllerTrust controllerTrust;
    /** {@code namespace:name} of the adopted Pod Identity association's service account; null without one. */
    String associatedServiceAccount;
    /** The getting-started CloudFormation stack the resources came from; null for a Terraform state. */
    String cloudFormationStack;

    Findings(String cluster, String source) {
        this.cluster = cluster;
        this.source = source;
    }

    /**
     * The releases of a Helm CLI install, named with --helm-release as NAMESPACE/NAME: no state holds them, and
     * without their import the karpenter stack would install a second controller beside the running one.
     */
    void helmCliReleases(List<String> releases) {
        if (releases.isEmpty()) {
            return;
        }
        if (!helmReleases.isEmpty()) {
            throw new ConfigException("--helm-release: " + source + " already holds the Helm releases "
                    + String.join(", ", helmReleases) + "; leave the option out");
        }
        for (String release : releases) {
            if (!HELM_CLI_RELEASE.matcher(release).matches()) {
                throw new ConfigException("--helm-release " + ConfigException.quote(release)
                        + " must be NAMESPACE/karpenter or NAMESPACE/karpenter-crd (helm list -A shows them)");
            }
            String releaseNamespace = release.substring(0, release.indexOf('/'));
            if (!helmReleases.isEmpty() && !releaseNamespace.equals(namespace)) {
                throw new ConfigException("--helm-release " + ConfigException.quote(release) + " is in another"
                        + " namespace than " + ConfigException.quote(helmReleases.get(0)) + ": the project installs"
                        + " both releases in karpenter_namespace");
            }
            if (helmReleases.contains(release)) {
                throw new ConfigException("--helm-release " + ConfigException.quote(release) + " is given twice");
            }
            namespace = releaseNamespace;
            helmReleases.add(release);
            found.add("--helm-release " + release + ": a Helm release installed with the Helm CLI");
        }
        checks.add("karpenter_chart_version must be the running version (helm list -n " + namespace + "), and"
                + " adopt.chart_version the same, so that the step guard knows what runs");
    }

    void forget(String resourceAddress) {
        if (!removed.contains(resourceAddress)) {
            removed.add(resourceAddress);
        }
    }
}
