package dev.platform.karpenter.adopt;

import static dev.platform.karpenter.config.Adoption.CHART_VERSION;
import static dev.platform.karpenter.config.Adoption.CONTROLLER_ROLE;
import static dev.platform.karpenter.config.Adoption.INSTANCE_PROFILE;
import static dev.platform.karpenter.config.Adoption.NODE_ACCESS_ENTRY;
import static dev.platform.karpenter.config.Adoption.NODE_ROLE;
import static dev.platform.karpenter.config.Adoption.POD_IDENTITY_ASSOCIATION;
import static dev.platform.karpenter.config.Adoption.QUEUE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.adopt.OldState.Resource;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.release.InterruptionEvents;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps the resources of an old Terraform root (terraform-aws-modules' karpenter module v19 to v21, helm_release of
 * the karpenter charts, kubectl_manifest pools) onto what the project's stacks would create.
 */
final class StateAdopter {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> NODE_POOL_KINDS = Set.of("Provisioner", "AWSNodeTemplate", "NodePool", "EC2NodeClass");
    private static final Set<String> CHARTS = Set.of("karpenter", "karpenter-crd");

    private StateAdopter() {}

    /**
     * @param stateName the state file's name, for messages
     * @param cluster   the cluster to adopt, required when the state holds several
     * @param helmCliReleases releases installed with the Helm CLI (--helm-release), which the state cannot hold
     */
    static Findings adopt(
            List<Resource> resources, String stateName, Optional<String> cluster, List<String> helmCliReleases) {
        Map<String, List<Resource>> modules = new LinkedHashMap<>();
        for (Resource resource : resources) {
            modules.computeIfAbsent(resource.module(), m -> new ArrayList<>()).add(resource);
        }
        Map<String, String> clusterByModule = new LinkedHashMap<>();
        modules.forEach((module, inModule) -> {
            if (!module.isEmpty() && ModuleVersion.isKarpenterModule(inModule)) {
                clusterByModule.put(module, clusterOf(inModule));
            }
        });
        List<Resource> charts = resources.stream()
                .filter(r -> r.managed() && r.type().equals("helm_release"))
                .filter(r -> CHARTS.contains(chartName(r.text("chart"))))
                .toList();
        List<Resource> pools = resources.stream()
                .filter(r -> r.managed() && r.type().equals("kubectl_manifest"))
                .filter(r -> NODE_POOL_KINDS.contains(r.text("kind")))
                .toList();
        if (clusterByModule.isEmpty() && charts.isEmpty()) {
            throw new ConfigException(stateName + ": no Karpenter in this state: no resource of terraform-aws-modules'"
                    + " karpenter module (v19.x, v20.x, v21.x) and no helm_release of the karpenter chart");
        }
        List<String> clusters = clusterByModule.values().stream().distinct().toList();
        String chosen;
        if (cluster.isPresent()) {
            chosen = cluster.get();
            if (!clusters.isEmpty() && !clusters.contains(chosen)) {
                throw new ConfigException(stateName + ": --cluster " + ConfigException.quote(chosen)
                        + " has no Karpenter module in this state: it holds " + String.join(", ", clusters));
            }
        } else if (clusters.size() > 1) {
            throw new ConfigException(stateName + ": the state holds Karpenter of " + clusters.size() + " clusters ("
                    + String.join(", ", clusters) + "): name one with --cluster NAME");
        } else if (clusters.size() == 1) {
            chosen = clusters.get(0);
        } else {
            throw new ConfigException(stateName + ": the state holds a karpenter helm_release but no karpenter"
                    + " module, so its cluster is unknown: name it with --cluster NAME");
        }
        List<String> ofCluster = clusterByModule.entrySet().stream()
                .filter(e -> e.getValue().equals(chosen))
                .map(Map.Entry::getKey)
                .toList();
        Findings findings = new Findings(chosen, stateName);
        for (String module : ofCluster) {
            List<Resource> inModule = modules.get(module);
            ModuleVersion version = ModuleVersion.of(inModule)
                    .orElseThrow(() -> new ConfigException(stateName + ": " + module + " is of no known version of"
                            + " terraform-aws-modules' karpenter module (v19.x, v20.x, v21.x): none declares "
                            + ModuleVersion.undeclared(inModule)));
            findings.found.add(module + ": terraform-aws-modules/eks//modules/karpenter " + version.label);
            mapModule(findings, module, version, inModule, stateName);
        }
        // Releases and pools belong to the chosen cluster only when no other cluster's module shares the state.
        boolean oneCluster = clusters.size() <= 1;
        for (Resource release : charts) {
            if (oneCluster) {
                mapRelease(findings, release, stateName);
            } else {
                findings.notMapped.add(release.address() + ": the state holds several clusters, so which one this"
                        + " release runs on is unknown; adopt it by hand (helm_releases)");
            }
        }
        for (Resource pool : pools) {
            if (oneCluster) {
                String object = pool.text("kind") + "/" + pool.text("name");
                findings.nodePoolObjects.add(object);
                findings.found.add(pool.address() + ": " + object);
                findings.forget(pool.resourceAddress());
            }
        }
        findings.helmCliReleases(helmCliReleases);
        identity(findings);
        return findings;
    }

    /**
     * The identity and service account the project's trust must name: the running controller's, read from its
     * role's trust (a Pod Identity association in the state settles the identity). The project's trust names one
     * identity and one service account, so anything else would take the controller's credentials at the first apply.
     */
    private static void identity(Findings findings) {
        boolean association = findings.associatedServiceAccount != null;
        if (findings.controllerTrust == null && !association) {
            return;
        }
        // Without a role of its own the association's module was given one: its trust is not for the project.
        ControllerTrust trust = findings.controllerTrust == null
                ? new ControllerTrust(true, false, List.of())
                : findings.controllerTrust;
        String role = "the controller role " + findings.adopt.getOrDefault(CONTROLLER_ROLE, "");
        String findAssociation = "aws eks list-pod-identity-associations --cluster-name " + findings.cluster;
        if (!association && trust.podIdentity() && trust.irsa()) {
            findings.checks.add(role + " trusts both IRSA and EKS Pod Identity, and the project's trusts one:"
                    + " controller_identity must name the one the controller's pods use (their environment holds"
                    + " AWS_WEB_IDENTITY_TOKEN_FILE for IRSA, AWS_CONTAINER_CREDENTIALS_FULL_URI for Pod Identity);"
                    + " for pod_identity, add its association to adopt (" + findAssociation + ")");
        } else if (!association && trust.podIdentity()) {
            findings.settings.put("controller_identity", "\"pod_identity\"");
            findings.checks.add(role + " trusts EKS Pod Identity, but its association is not in " + findings.source
                    + ": find it with " + findAssociation + " and add pod_identity_association = \""
                    + findings.cluster + ",<associationId>\" to adopt (EKS refuses a second association for the"
                    + " service account)");
        } else if (!trust.podIdentity() && !trust.irsa()) {
            findings.checks.add(role + " trusts neither IRSA nor EKS Pod Identity: the project replaces its trust"
                    + " with controller_identity's, so check that the controller gets its credentials that way");
        }
        List<String> accounts = association
                ? List.of(findings.associatedServiceAccount)
                : trust.irsa() ? trust.serviceAccounts() : List.of();
        if (accounts.size() == 1 && accounts.get(0).matches("[^:*?]+:[^:*?]+")) {
            serviceAccount(findings, accounts.get(0), association ? "the Pod Identity association" : role);
        } else if (!accounts.isEmpty()) {
            findings.checks.add(role + " trusts the service accounts " + String.join(", ", accounts)
                    + ", and the project's trusts one: karpenter_namespace and karpenter_service_account must name"
                    + " the controller's");
        }
    }

    /** The controller's service account, {@code namespace:name}, as the two settings (printed off their defaults). */
    private static void serviceAccount(Findings findings, String account, String source) {
        String namespace = account.substring(0, account.indexOf(':'));
        String name = account.substring(account.indexOf(':') + 1);
        if (!findings.helmReleases.isEmpty() && !findings.namespace.equals(namespace)) {
            findings.checks.add(source + " names the service account " + account + ", but the Helm release runs in "
                    + findings.namespace + ": the project's identity names karpenter_namespace, so the controller"
                    + " must use a service account of that namespace");
        } else {
            findings.namespace = namespace;
        }
        if (!name.equals(Findings.DEFAULT_SERVICE_ACCOUNT)) {
            findings.settings.put(SettingsCatalogue.KARPENTER_SERVICE_ACCOUNT.key(), ConfigException.quoteWhole(name));
        }
    }

    private static void mapModule(
            Findings findings, String module, ModuleVersion version, List<Resource> resources, String stateName) {
        boolean makesNodeRole =
                resources.stream().anyMatch(r -> r.managed() && r.local().equals(version.nodeRole));
        for (Resource r : resources) {
            if (!r.managed()) {
                continue;
            }
            findings.forget(r.resourceAddress());
            String local = r.local();
            if (local.equals(version.controllerRole)) {
                requireRootPath(r, stateName, "controller role");
                // The role keeps its name through adopt, generated or not, so irsa_use_name_prefix stays as it is.
                findings.adopt.put(CONTROLLER_ROLE, r.text("name"));
                findings.controllerTrust = ControllerTrust.of(r.text("assume_role_policy"));
            } else if (local.equals(version.nodeRole)) {
                requireRootPath(r, stateName, "node role");
                findings.adopt.put(NODE_ROLE, r.text("name"));
                findings.settings.put("create_iam_role", "true");
            } else if (local.equals("aws_iam_instance_profile.this")) {
                requireRootPath(r, stateName, "instance profile");
                findings.adopt.put(INSTANCE_PROFILE, r.text("name"));
                findings.checks.add("the nodes' role is " + r.text("role")
                        + ": node_group_name (or iam_role_arn, or create_iam_role) must give the same role");
            } else if (local.equals("aws_eks_pod_identity_association.karpenter")) {
                findings.adopt.put(POD_IDENTITY_ASSOCIATION, r.text("cluster_name") + "," + r.text("association_id"));
                findings.settings.put("controller_identity", "\"pod_identity\"");
                findings.associatedServiceAccount = r.text("namespace") + ":" + r.text("service_account");
            } else if (local.equals("aws_eks_access_entry.node") && makesNodeRole) {
                findings.adopt.put(NODE_ACCESS_ENTRY, r.text("cluster_name") + ":" + r.text("principal_arn"));
                if (!r.text("type").isEmpty() && !r.text("type").equals("EC2_LINUX")) {
                    findings.checks.add("the node role's access entry is of type " + r.text("type") + ": the"
                            + " project's is EC2_WINDOWS only while a pool launches Windows, else EC2_LINUX, and a"
                            + " change of type replaces the entry");
                }
            } else if (local.equals("aws_eks_access_entry.node")) {
                // The entry of a node role the module was given (create_node_iam_role = false): the project cannot
                // import it, and a second entry for the role would fail, so it stays in EKS, unmanaged.
                findings.settings.put("iam_role_arn", ConfigException.quoteWhole(r.text("principal_arn")));
                findings.settings.put("iam_role_access_entry", "false");
                findings.notMapped.add(r.address() + ": the access entry of the node role the module was given; it"
                        + " stays in EKS, unmanaged (iam_role_access_entry = false: the project makes no second)");
            } else if (local.equals("aws_sqs_queue.this")) {
                if (r.attributes().path("fifo_queue").asBoolean(false)) {
                    throw new ConfigException(stateName + ": " + r.address() + " is a FIFO queue, which the project"
                            + " cannot take over: queue_name names a standard queue and no setting makes it FIFO");
                }
                findings.adopt.put(QUEUE, r.text("id"));
                findings.settings.put("queue_name", ConfigException.quoteWhole(r.text("name")));
                if (!r.text("kms_master_key_id").isEmpty()) {
                    findings.settings.put("queue_kms_key_id", ConfigException.quoteWhole(r.text("kms_master_key_id")));
                }
            } else if (local.equals("aws_cloudwatch_event_rule.this")) {
                Optional<Event> event = eventOf(r.text("event_pattern"));
                if (event.isPresent()) {
                    findings.eventRules.put(event.get().ruleSuffix(), r.text("name"));
                } else {
                    findings.notMapped.add(r.address() + ": its event pattern matches no event Karpenter handles; it"
                            + " is forgotten, not deleted");
                }
            } else if (local.startsWith("aws_iam_policy.")) {
                findings.oldPolicyArns.add(r.text("arn"));
                findings.notMapped.add(r.address() + " (" + r.text("name") + "): the project's controller policies"
                        + " are split by concern; it stays attached until they are, then a step deletes it");
            } else if (local.equals("aws_iam_role_policy.controller")) {
                findings.notMapped.add(r.address() + " (" + r.text("name") + "): an inline policy; the project"
                        + " attaches managed ones, then a step deletes it");
            } else if (local.equals("aws_cloudwatch_event_target.this")
                    || local.equals("aws_sqs_queue_policy.this")
                    || local.startsWith("aws_iam_role_policy_attachment.")) {
                // Imported with their rule, queue or role (targets, the queue policy), or attached again.
                continue;
            } else {
                findings.notMapped.add(r.address() + ": not mapped; it is forgotten, not deleted");
            }
        }
        findings.found.add(
                module + ": " + resources.stream().filter(Resource::managed).count() + " resources");
    }

    private static void mapRelease(Findings findings, Resource release, String stateName) {
        String name = release.text("name");
        String chart = chartName(release.text("chart"));
        if (!name.equals(chart)) {
            throw new ConfigException(stateName + ": " + release.address() + " installs the chart " + chart
                    + " as release " + ConfigException.quote(name) + ", which the project cannot take over: its"
                    + " release is named " + chart + " and no setting names it otherwise");
        }
        String namespace = release.text("namespace").isEmpty() ? "default" : release.text("namespace");
        findings.namespace = namespace;
        findings.helmReleases.add(namespace + "/" + name);
        findings.found.add(release.address() + ": Helm release " + namespace + "/" + name + ", chart version "
                + release.text("version"));
        if (name.equals("karpenter") && !release.text("version").isEmpty()) {
            // The step guard's deployed release until the stacks record one: a first deploy past it is refused.
            findings.adopt.put(CHART_VERSION, release.text("version"));
        }
        findings.checks.add("karpenter_chart_version must be the running \"" + release.text("version") + "\"");
        findings.forget(release.resourceAddress());
    }

    /** "oci://public.ecr.aws/karpenter/karpenter" and "karpenter" both name the chart karpenter. */
    static String chartName(String chart) {
        return chart.substring(chart.lastIndexOf('/') + 1);
    }

    /** The cluster a module instance serves: its rules' ClusterName tag, else the EKS resources' cluster_name. */
    private static String clusterOf(List<Resource> resources) {
        for (Resource r : resources) {
            String tagged = r.attributes().path("tags").path("ClusterName").asText("");
            if (!tagged.isEmpty()) {
                return tagged;
            }
            if (r.managed()
                    && r.type().startsWith("aws_eks_")
                    && !r.text("cluster_name").isEmpty()) {
                return r.text("cluster_name");
            }
        }
        for (Resource r : resources) {
            String name = r.text("name");
            if (r.type().equals("aws_iam_role") && name.startsWith("KarpenterIRSA-")) {
                return name.substring("KarpenterIRSA-".length());
            }
            if (r.type().equals("aws_sqs_queue") && name.startsWith("Karpenter-")) {
                return name.substring("Karpenter-".length());
            }
        }
        return resources.get(0).module();
    }

    /** The project's roles and instance profile live at path "/": one elsewhere would be replaced. */
    private static void requireRootPath(Resource r, String stateName, String what) {
        String path = r.text("path");
        if (!path.isEmpty() && !path.equals("/")) {
            throw new ConfigException(stateName + ": " + r.address() + ": the " + what + " " + r.text("name")
                    + " has the path " + path + ", which the project cannot take over: it makes IAM names at path /"
                    + " and no setting gives another path");
        }
    }

    /** The handled event whose detail-type the rule's pattern names. */
    static Optional<Event> eventOf(String eventPattern) {
        JsonNode pattern;
        try {
            pattern = JSON.readTree(eventPattern);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (pattern == null) {
            return Optional.empty();
        }
        List<Event> all = List.of(
                InterruptionEvents.HEALTH,
                InterruptionEvents.SPOT_INTERRUPTION,
                InterruptionEvents.REBALANCE,
                InterruptionEvents.STATE_CHANGE,
                InterruptionEvents.CAPACITY_RESERVATION_INTERRUPTION);
        for (JsonNode detailType : pattern.path("detail-type")) {
            for (Event event : all) {
                if (event.detailType().equals(detailType.asText())) {
                    return Optional.of(event);
                }
            }
        }
        return Optional.empty();
    }
}
