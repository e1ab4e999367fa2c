package dev.platform.karpenter.adopt;

import static dev.platform.karpenter.config.Adoption.EVENT_RULES;
import static dev.platform.karpenter.config.Adoption.HELM_RELEASES;
import static dev.platform.karpenter.config.Adoption.KEYS;
import static dev.platform.karpenter.config.Adoption.NODE_POOL_OBJECTS;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.SettingsCatalogue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** bin/adopt's three texts: the tfvars lines, the removed blocks and the report with the steps. */
final class AdoptionText {
    /** The release the node-pools stack installs (NodePoolsStack), which Helm lets take over labelled objects. */
    static final String NODE_POOLS_RELEASE = "karpenter-nodepools";

    private AdoptionText() {}

    /** The adopt entries in the order of {@link dev.platform.karpenter.config.Adoption#KEYS}. */
    static Map<String, Object> adopt(Findings findings) {
        Map<String, Object> entries = new LinkedHashMap<>(findings.adopt);
        if (!findings.eventRules.isEmpty()) {
            entries.put(EVENT_RULES, findings.eventRules);
        }
        if (!findings.helmReleases.isEmpty()) {
            entries.put(HELM_RELEASES, findings.helmReleases);
        }
        if (!findings.nodePoolObjects.isEmpty()) {
            entries.put(NODE_POOL_OBJECTS, findings.nodePoolObjects);
        }
        Map<String, Object> ordered = new LinkedHashMap<>();
        KEYS.stream().filter(entries::containsKey).forEach(key -> ordered.put(key, entries.get(key)));
        return ordered;
    }

    static List<String> tfvars(Findings findings) {
        List<String> lines = new ArrayList<>();
        lines.add("# bin/adopt: cluster " + findings.cluster + ", from " + findings.source);
        if (!findings.namespace.equals(Findings.DEFAULT_NAMESPACE)) {
            lines.add(SettingsCatalogue.KARPENTER_NAMESPACE.key() + " = "
                    + ConfigException.quoteWhole(findings.namespace));
        }
        findings.settings.forEach((key, value) -> lines.add(key + " = " + value));
        lines.add(SettingsCatalogue.ADOPT.key() + " = {");
        adopt(findings).forEach((key, value) -> {
            if (value instanceof Map<?, ?> map) {
                lines.add("  " + key + " = {");
                map.forEach((k, v) -> lines.add("    " + k + " = " + ConfigException.quoteWhole((String) v)));
                lines.add("  }");
            } else if (value instanceof List<?> list) {
                lines.add("  " + key + " = ["
                        + String.join(
                                ", ",
                                list.stream()
                                        .map(v -> ConfigException.quoteWhole((String) v))
                                        .toList())
                        + "]");
            } else {
                lines.add("  " + key + " = " + ConfigException.quoteWhole((String) value));
            }
        });
        lines.add("}");
        return lines;
    }

    static String removedBlocks(Findings findings) {
        StringBuilder text = new StringBuilder("# bin/adopt: what the old root hands over to karpenter-cdktf (cluster "
                + findings.cluster + "). Delete these resources' blocks (the module call, the releases, the"
                + " manifests)\n# from the old root's configuration; Terraform then forgets them and destroys"
                + " nothing (Terraform 1.7 or later).\n");
        for (String address : findings.removed) {
            text.append("\nremoved {\n  from = ")
                    .append(address)
                    .append("\n\n  lifecycle {\n    destroy = false\n  }\n}\n");
        }
        return text.toString();
    }

    static List<String> report(Findings findings, boolean removedWritten) {
        List<String> lines = new ArrayList<>();
        lines.add("found in " + findings.source + ":");
        findings.found.forEach(line -> lines.add("  " + line));
        if (!findings.notMapped.isEmpty()) {
            lines.add("not taken over:");
            findings.notMapped.forEach(line -> lines.add("  " + line));
        }
        if (!findings.checks.isEmpty()) {
            lines.add("check in the tfvars:");
            findings.checks.forEach(line -> lines.add("  " + line));
        }
        lines.add("steps, in this order:");
        int step = 1;
        lines.add("  " + step++ + ". Add the lines printed above to cluster " + findings.cluster
                + "'s tfvars (replace a setting that is already there).");
        if (findings.cloudFormationStack != null) {
            String stack = findings.cloudFormationStack;
            lines.add("  " + step++ + ". CloudFormation: keep every resource when the stack goes: aws cloudformation"
                    + " get-template --stack-name " + stack + " --query TemplateBody --output text > template.yaml;"
                    + " add 'DeletionPolicy: Retain' to each resource; aws cloudformation update-stack --stack-name "
                    + stack + " --template-body file://template.yaml --capabilities CAPABILITY_NAMED_IAM (with the"
                    + " stack's parameters); only once aws cloudformation wait stack-update-complete --stack-name "
                    + stack + " succeeds, aws cloudformation delete-stack --stack-name " + stack
                    + " (its resources stay; without the retained policies it would delete them).");
        } else {
            lines.add("  " + step++ + ". Old root: delete the blocks of the resources in "
                    + (removedWritten ? "the removed file" : "--removed FILE (run again with it)")
                    + ", add that file, then 'terraform plan' (every change reads 'will no longer be managed') and"
                    + " 'terraform apply'.");
        }
        String stacks = "bin/stacks %s --cluster " + findings.cluster + " --concern ";
        lines.add("  " + step++ + ". KARPENTER_TFVARS=<tfvars> libexec/app, then " + stacks.formatted("plan")
                + "iam,interruption: it imports, updates in place and creates only what is new; then "
                + stacks.formatted("apply") + "iam,interruption.");
        if (!findings.helmReleases.contains(findings.namespace + "/karpenter-crd")) {
            lines.add("  " + step++ + ". Let the karpenter-crd release own the CRDs the karpenter chart installed: "
                    + HelmOwnership.crdCommand(findings.namespace));
        }
        lines.add("  " + step++ + ". " + stacks.formatted("plan") + "karpenter, then " + stacks.formatted("apply")
                + "karpenter: "
                + (findings.helmReleases.isEmpty()
                        ? "it installs the controller in namespace " + findings.namespace + ". If Karpenter already"
                                + " runs from a Helm CLI install (helm list -A), run bin/adopt again with"
                                + " --helm-release NAMESPACE/karpenter (and NAMESPACE/karpenter-crd if listed)"
                                + " instead: otherwise a second controller starts beside the running one."
                        : "the Helm releases " + String.join(", ", findings.helmReleases)
                                + " are imported and upgraded in place."));
        if (!findings.nodePoolObjects.isEmpty()) {
            lines.add("  " + step++ + ". Let the node-pools release own the existing pools (Helm adopts labelled"
                    + " objects; nothing is deleted, no node drains):");
            HelmOwnership.commands(findings.nodePoolObjects, NODE_POOLS_RELEASE, findings.namespace)
                    .forEach(command -> lines.add("       " + command));
        }
        lines.add("  " + step++ + ". " + stacks.formatted("apply") + "nodepools.");
        if (!findings.oldPolicyArns.isEmpty()) {
            lines.add("  " + step++ + ". Delete the old controller policy, now that the project's are attached:");
            String role = (String) findings.adopt.getOrDefault("controller_role", "<the controller role>");
            for (String arn : findings.oldPolicyArns) {
                lines.add("       aws iam detach-role-policy --role-name " + role + " --policy-arn " + arn);
                lines.add("       aws iam delete-policy --policy-arn " + arn);
            }
        }
        lines.add("  " + step + ". bin/upgrade-path prints the way on from the running release.");
        return lines;
    }
}
