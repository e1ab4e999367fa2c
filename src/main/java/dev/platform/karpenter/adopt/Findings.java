package dev.platform.karpenter.adopt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an old installation holds, as bin/adopt reports it: the settings that make the project's names equal to the
 * adopted ones, the adopt entries (import ids), the old root's addresses to forget, what was found, what is left
 * out and why, and the steps that follow from it.
 */
final class Findings {
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
    String namespace = "karpenter";
    /** The getting-started CloudFormation stack the resources came from; null for a Terraform state. */
    String cloudFormationStack;

    Findings(String cluster, String source) {
        this.cluster = cluster;
        this.source = source;
    }

    void forget(String resourceAddress) {
        if (!removed.contains(resourceAddress)) {
            removed.add(resourceAddress);
        }
    }
}
