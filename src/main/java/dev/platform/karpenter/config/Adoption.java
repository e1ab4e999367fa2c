package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.ADOPT;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.InterruptionEvents;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import dev.platform.karpenter.release.KarpenterRelease;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The adopt setting: resources another tool made (terraform-aws-modules' karpenter module, a helm_release, the
 * getting-started CloudFormation stack) that the stacks take over in place through Terraform import blocks. Each
 * value is the Terraform import id of the resource the stacks would otherwise create; IAM roles, the instance profile
 * and the rules keep their names (a rename would replace them), the queue keeps queue_name. bin/adopt writes it.
 *
 * @param controllerRole         the controller role's name
 * @param podIdentityAssociation "cluster,association-id" of the controller's Pod Identity association
 * @param nodeRole               the node role's name, when the old tool created it (create_iam_role = true)
 * @param nodeAccessEntry        "cluster:role-arn" of that node role's access entry
 * @param instanceProfile        the nodes' instance profile name (Karpenter 0.x)
 * @param queue                  the interruption queue's URL
 * @param eventRules             rule name by event (rule suffix, e.g. "SpotInterrupt")
 * @param helmReleases           "namespace/name" of the karpenter and karpenter-crd releases
 * @param nodePoolObjects        "Kind/name" of the pools and node classes that become the node-pools release's
 * @param chartVersion           the chart version the adopted karpenter release runs: the step guard's deployed
 *                               release until the stacks have recorded one, so that adopting is no jump
 */
public record Adoption(
        Optional<String> controllerRole,
        Optional<String> podIdentityAssociation,
        Optional<String> nodeRole,
        Optional<String> nodeAccessEntry,
        Optional<String> instanceProfile,
        Optional<String> queue,
        Map<String, String> eventRules,
        List<String> helmReleases,
        List<String> nodePoolObjects,
        Optional<KarpenterRelease> chartVersion) {

    public static final String CONTROLLER_ROLE = "controller_role";
    public static final String POD_IDENTITY_ASSOCIATION = "pod_identity_association";
    public static final String NODE_ROLE = "node_role";
    public static final String NODE_ACCESS_ENTRY = "node_access_entry";
    public static final String INSTANCE_PROFILE = "instance_profile";
    public static final String QUEUE = "queue";
    public static final String EVENT_RULES = "event_rules";
    public static final String HELM_RELEASES = "helm_releases";
    public static final String NODE_POOL_OBJECTS = "node_pool_objects";
    public static final String CHART_VERSION = "chart_version";
    /** The keys in the order bin/adopt writes them. */
    public static final List<String> KEYS = List.of(
            CONTROLLER_ROLE,
            POD_IDENTITY_ASSOCIATION,
            NODE_ROLE,
            NODE_ACCESS_ENTRY,
            INSTANCE_PROFILE,
            QUEUE,
            EVENT_RULES,
            HELM_RELEASES,
            CHART_VERSION,
            NODE_POOL_OBJECTS);

    public static final Adoption NONE = new Adoption(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Map.of(),
            List.of(),
            List.of(),
            Optional.empty());

    /** IAM role and instance profile names: 1 to 64 of these characters. */
    private static final Pattern IAM_NAME = Pattern.compile("[\\w+=,.@-]{1,64}");
    /** EventBridge rule names. */
    private static final Pattern RULE_NAME = Pattern.compile("[.\\-_A-Za-z0-9]{1,64}");

    private static final Pattern QUEUE_URL =
            Pattern.compile("https?://[A-Za-z0-9.:-]+(/[A-Za-z0-9._-]+)*/\\d{12}/[\\w-]{1,80}");
    /** "cluster,a-..." as the provider imports an association. */
    private static final Pattern POD_IDENTITY_ID = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]{0,99},a-[a-z0-9]{1,64}");
    /** "cluster:role-arn" as the provider imports an access entry. */
    private static final Pattern ACCESS_ENTRY_ID =
            Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]{0,99}:arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");

    private static final Pattern OBJECT =
            Pattern.compile("(Provisioner|AWSNodeTemplate|NodePool|EC2NodeClass)/[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    public boolean isEmpty() {
        return equals(NONE);
    }

    /** Whether {@code namespace/name} is a Helm release to import. */
    public boolean adoptsRelease(String namespace, String name) {
        return helmReleases.contains(namespace + "/" + name);
    }

    static Adoption from(SettingsReader settings, Context context) {
        Map<String, Object> raw = settings.get(ADOPT);
        if (raw.isEmpty()) {
            return NONE;
        }
        for (String key : raw.keySet()) {
            ConfigException.require(
                    KEYS.contains(key),
                    () -> ADOPT.key() + "." + key + " is not a resource the stacks take over: allowed "
                            + String.join(", ", KEYS));
        }
        Adoption adoption = new Adoption(
                name(raw, CONTROLLER_ROLE, IAM_NAME, "an IAM role name"),
                name(raw, POD_IDENTITY_ASSOCIATION, POD_IDENTITY_ID, "\"CLUSTER,ASSOCIATION-ID\""),
                name(raw, NODE_ROLE, IAM_NAME, "an IAM role name"),
                name(raw, NODE_ACCESS_ENTRY, ACCESS_ENTRY_ID, "\"CLUSTER:ROLE-ARN\""),
                name(raw, INSTANCE_PROFILE, IAM_NAME, "an instance profile name"),
                name(raw, QUEUE, QUEUE_URL, "an SQS queue URL"),
                rules(raw),
                strings(raw, HELM_RELEASES),
                strings(raw, NODE_POOL_OBJECTS),
                string(raw, CHART_VERSION).map(Adoption::chartVersion));
        adoption.requireCreatedBy(context);
        return adoption;
    }

    /** What the rest of the configuration decides about which resources exist; read by {@link #from}. */
    record Context(
            KarpenterRelease release,
            DeclaredApis apis,
            IamSettings iam,
            String queueName,
            String namespace,
            PoolsAndNodeClasses poolsAndClasses) {

        /** "Kind/name" of every pool and node class the configuration renders, in each declared generation. */
        List<String> nodePoolObjects() {
            List<String> objects = new ArrayList<>();
            for (ApiGeneration generation : apis.rendered()) {
                boolean alpha = generation == ApiGeneration.V1ALPHA5;
                poolsAndClasses.pools().forEach(p -> objects.add((alpha ? "Provisioner/" : "NodePool/") + p.name()));
                poolsAndClasses
                        .nodeClasses()
                        .forEach(c -> objects.add((alpha ? "AWSNodeTemplate/" : "EC2NodeClass/") + c.name()));
            }
            return objects;
        }
    }

    /** Refuses, in one line, an adopted resource that the configuration would not create. */
    private void requireCreatedBy(Context context) {
        String adopt = ADOPT.key() + ".";
        podIdentityAssociation.ifPresent(id -> ConfigException.require(
                context.iam().controllerIdentity() == ControllerIdentity.POD_IDENTITY,
                () -> adopt + POD_IDENTITY_ASSOCIATION + ": the configuration makes no Pod Identity association"
                        + " (controller_identity is \"irsa\"): set controller_identity = \"pod_identity\" or remove"
                        + " it"));
        nodeRole.ifPresent(name -> ConfigException.require(
                context.iam().createNodeRole(),
                () -> adopt + NODE_ROLE + ": the configuration creates no node role (create_iam_role = false):"
                        + " set create_iam_role = true or remove it"));
        nodeAccessEntry.ifPresent(id -> ConfigException.require(
                context.iam().createNodeRole() && nodeRole.isPresent(),
                () -> adopt + NODE_ACCESS_ENTRY + ": only the access entry of an adopted node role is taken over"
                        + " (create_iam_role = true with " + adopt + NODE_ROLE + ")"));
        instanceProfile.ifPresent(name -> ConfigException.require(
                context.apis().needsInstanceProfile(),
                () -> adopt + INSTANCE_PROFILE + ": Karpenter "
                        + context.release().chartVersion()
                        + " makes its own instance profiles, so the configuration creates none: remove it"));
        queue.ifPresent(url -> {
            String adoptedName = url.substring(url.lastIndexOf('/') + 1);
            ConfigException.require(
                    adoptedName.equals(context.queueName()),
                    () -> adopt + QUEUE + " is the queue \"" + adoptedName + "\" but queue_name makes \""
                            + context.queueName() + "\": set queue_name = \"" + adoptedName + "\"");
        });
        List<String> suffixes = InterruptionEvents.handledBy(context.release()).stream()
                .map(Event::ruleSuffix)
                .toList();
        eventRules
                .keySet()
                .forEach(suffix -> ConfigException.require(
                        suffixes.contains(suffix),
                        () -> adopt + EVENT_RULES + "." + suffix + ": Karpenter "
                                + context.release().chartVersion() + " makes no such rule: allowed "
                                + String.join(", ", suffixes)));
        Set<String> releases = Set.of(context.namespace() + "/karpenter", context.namespace() + "/karpenter-crd");
        helmReleases.forEach(release -> ConfigException.require(
                releases.contains(release),
                () -> adopt + HELM_RELEASES + ": " + ConfigException.quote(release) + " is no release of the"
                        + " configuration: allowed \"" + context.namespace() + "/karpenter\" and \""
                        + context.namespace() + "/karpenter-crd\" (karpenter_namespace names the namespace)"));
        List<String> rendered = context.nodePoolObjects();
        nodePoolObjects.forEach(object -> {
            ConfigException.requireMatch(
                    OBJECT, adopt + NODE_POOL_OBJECTS, "must be Kind/name of a pool or node class", object);
            ConfigException.require(
                    rendered.contains(object),
                    () -> adopt + NODE_POOL_OBJECTS + ": " + object + " is no pool or node class of the configuration"
                            + " (it has " + String.join(", ", rendered) + "): declare it in node_pools or"
                            + " node_classes, or leave it out of adopt (it then stays as it is, unmanaged)");
        });
    }

    private static KarpenterRelease chartVersion(String version) {
        try {
            return KarpenterRelease.of(version);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    ADOPT.key() + "." + CHART_VERSION + e.getMessage().substring("karpenter_chart_version".length()));
        }
    }

    private static Optional<String> string(Map<String, Object> raw, String key) {
        Object value = raw.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text) || text.isBlank()) {
            throw new ConfigException(ADOPT.key() + "." + key + " must be a non-empty string");
        }
        return Optional.of(text);
    }

    private static Optional<String> name(Map<String, Object> raw, String key, Pattern pattern, String what) {
        return string(raw, key)
                .map(value -> ConfigException.requireMatch(pattern, ADOPT.key() + "." + key, "must be " + what, value));
    }

    private static List<String> strings(Map<String, Object> raw, String key) {
        Object value = raw.get(key);
        if (value == null) {
            return List.of();
        }
        return List.copyOf(SettingsReader.toStringList(ADOPT.key() + "." + key, value));
    }

    private static Map<String, String> rules(Map<String, Object> raw) {
        Object value = raw.get(EVENT_RULES);
        if (value == null) {
            return Map.of();
        }
        Map<String, String> rules =
                new LinkedHashMap<>(SettingsReader.toStringMap(ADOPT.key() + "." + EVENT_RULES, value));
        rules.forEach((suffix, name) -> ConfigException.requireMatch(
                RULE_NAME, ADOPT.key() + "." + EVENT_RULES + "." + suffix, "must be an EventBridge rule name", name));
        return Collections.unmodifiableMap(rules);
    }
}
