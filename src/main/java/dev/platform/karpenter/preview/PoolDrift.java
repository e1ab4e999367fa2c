package dev.platform.karpenter.preview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterRelease;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a change replaces in one pool: the base branch's rendered pool and node class against this branch's,
 * classified as Karpenter decides drift.
 *
 * <ul>
 *   <li>{@code static}: a hashed field changed. The pool's hash covers spec.template (a Provisioner: its spec) less
 *       what upstream tags {@code hash:"ignore"} (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go and nodeclaim.go:
 *       requirements, resources; v1alpha5: requirements, provider, providerRef, the TTLs, limits, weight,
 *       consolidation); the node class's covers its spec less the selector terms (aws/karpenter-provider-aws
 *       pkg/apis/v1/ec2nodeclass.go: subnet, security group, AMI and, from 1.3, capacity reservation selector terms;
 *       ipPrefixCount from 1.8; amiFamily as written, the family it resolves to being hashed). Hashing treats lists as
 *       sets and absent, null and empty as equal (hashstructure's SlicesAsSets, IgnoreZeroValue, ZeroNil).
 *   <li>{@code ami}: the AMI selection changed (pkg/cloudprovider/drift.go isAMIDrifted: a node whose AMI the class no
 *       longer resolves).
 *   <li>{@code network}: the subnet or security group selection changed (isSubnetDrifted: a node in a subnet no
 *       longer selected; areSecurityGroupsDrifted: a node whose groups differ from those selected).
 *   <li>{@code capacity_reservations}: the capacity reservation selection changed (1.3 on).
 *   <li>{@code requirements}: the requirements narrowed (kubernetes-sigs/karpenter nodeclaim/disruption/drift.go
 *       areRequirementsDrifted: a node whose labels the pool no longer admits), with the instance types no longer
 *       allowed, from the catalogue.
 * </ul>
 *
 * Everything else (limits, weight, budgets, consolidation) changes no node: {@code none}.
 *
 * @param causes    each {kind, fields[, instance_types]}
 * @param everyNode whether every node of the pool drifts (static, ami, security groups); otherwise only those the
 *                  change excludes
 * @param note      what could not be compared, if anything
 */
public record PoolDrift(List<Map<String, Object>> causes, boolean everyNode, Optional<String> note) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Node pool fields upstream leaves out of the hash, under spec.template.spec (v1, v1beta1). */
    private static final Set<String> POOL_TEMPLATE_IGNORED = Set.of("requirements", "resources");
    /** Provisioner fields upstream leaves out of its hash, under spec (v1alpha5). */
    private static final Set<String> PROVISIONER_IGNORED = Set.of(
            "requirements",
            "provider",
            "providerRef",
            "ttlSecondsAfterEmpty",
            "ttlSecondsUntilExpired",
            "limits",
            "weight",
            "consolidation");

    private static final List<String> AMI_FIELDS = List.of("amiSelectorTerms", "amiSelector");
    private static final List<String> NETWORK_FIELDS =
            List.of("subnetSelectorTerms", "securityGroupSelectorTerms", "subnetSelector", "securityGroupSelector");
    private static final List<String> SECURITY_GROUP_FIELDS =
            List.of("securityGroupSelectorTerms", "securityGroupSelector");
    private static final String RESERVATION_FIELD = "capacityReservationSelectorTerms";
    /** The node class fields out of its hash: the selectors above, and these. */
    private static final Set<String> NODE_CLASS_IGNORED_OTHERS = Set.of("ipPrefixCount", "amiFamily");

    /** The rendered objects bin/preview --json carries for a later comparison. */
    static Map<String, Object> rendered(PoolPreview preview, KarpenterRelease release) {
        Map<String, Object> rendered = new LinkedHashMap<>();
        rendered.put("release", release.chartVersion());
        rendered.put("api", release.apiGeneration().name());
        rendered.put("pool", preview.pool().rendered().object().spec());
        rendered.put(
                "node_class",
                preview.pool().rendered().nodeClass() == null
                        ? Map.of()
                        : preview.pool().rendered().nodeClass().object().spec());
        rendered.put(
                "node_class_family",
                preview.pool().rendered().nodeClass() == null
                        ? null
                        : preview.pool().rendered().nodeClass().family().setting());
        return rendered;
    }

    /** The drift of {@code head} against the base branch's entry for the same pool ({@code basePool}). */
    static PoolDrift of(PoolPreview head, JsonNode basePool, KarpenterRelease release, InstanceCatalogue catalogue) {
        JsonNode baseRendered = basePool.path("rendered");
        if (baseRendered.isMissingNode()) {
            return new PoolDrift(List.of(), false, Optional.of("the base preview carries no rendered objects"));
        }
        if (!baseRendered.path("api").asText().equals(release.apiGeneration().name())) {
            return new PoolDrift(
                    List.of(),
                    false,
                    Optional.of("the API generation changes ("
                            + baseRendered.path("api").asText() + " to "
                            + release.apiGeneration().name() + "): see the release change"));
        }
        Map<String, Object> headPool = tree(head.pool().rendered().object().spec());
        Map<String, Object> basePoolSpec = tree(baseRendered.path("pool"));
        Map<String, Object> headClass = head.pool().rendered().nodeClass() == null
                ? Map.of()
                : tree(head.pool().rendered().nodeClass().object().spec());
        Map<String, Object> baseClass = tree(baseRendered.path("node_class"));
        boolean provisioner = release.apiGeneration() == ApiGeneration.V1ALPHA5;

        List<Map<String, Object>> causes = new ArrayList<>();
        List<String> staticFields = new ArrayList<>();
        if (provisioner) {
            changed(basePoolSpec, headPool, PROVISIONER_IGNORED, "spec", staticFields);
        } else {
            Map<String, Object> baseTemplate = PoolFacts.map(basePoolSpec.get("template"));
            Map<String, Object> headTemplate = PoolFacts.map(headPool.get("template"));
            changed(
                    PoolFacts.map(baseTemplate.get("metadata")),
                    PoolFacts.map(headTemplate.get("metadata")),
                    Set.of(),
                    "spec.template.metadata",
                    staticFields);
            changed(
                    PoolFacts.map(baseTemplate.get("spec")),
                    PoolFacts.map(headTemplate.get("spec")),
                    POOL_TEMPLATE_IGNORED,
                    "spec.template.spec",
                    staticFields);
        }
        Set<String> classIgnored = new LinkedHashSet<>(AMI_FIELDS);
        classIgnored.addAll(NETWORK_FIELDS);
        classIgnored.add(RESERVATION_FIELD);
        if (release.isV1()) {
            classIgnored.addAll(NODE_CLASS_IGNORED_OTHERS);
        }
        if (provisioner) {
            classIgnored.add("launchTemplate"); // v1alpha1 provider.go: out of the AWSNodeTemplate hash
        }
        changed(baseClass, headClass, classIgnored, "nodeClass.spec", staticFields);
        if (release.isV1() && baseRendered.has("node_class_family")) {
            String baseFamily = baseRendered.path("node_class_family").asText(null);
            String headFamily = head.pool().rendered().nodeClass() == null
                    ? null
                    : head.pool().rendered().nodeClass().family().setting();
            if (!Objects.equals(baseFamily, headFamily)) {
                staticFields.add("nodeClass.spec.amiFamily (resolved: " + baseFamily + " to " + headFamily + ")");
            }
        }
        if (!staticFields.isEmpty()) {
            causes.add(cause("static", staticFields));
        }
        List<String> amiFields = differing(baseClass, headClass, AMI_FIELDS);
        if (!amiFields.isEmpty()) {
            causes.add(cause("ami", amiFields));
        }
        List<String> networkFields = differing(baseClass, headClass, NETWORK_FIELDS);
        if (!networkFields.isEmpty()) {
            causes.add(cause("network", networkFields));
        }
        List<String> reservationFields = differing(baseClass, headClass, List.of(RESERVATION_FIELD));
        if (!reservationFields.isEmpty()) {
            causes.add(cause("capacity_reservations", reservationFields));
        }
        RequirementsDrift requirements = requirements(head, basePool, catalogue);
        if (requirements != null) {
            causes.add(requirements.cause());
        }
        boolean everyNode = !staticFields.isEmpty()
                || !amiFields.isEmpty()
                || networkFields.stream()
                        .anyMatch(field -> SECURITY_GROUP_FIELDS.stream().anyMatch(field::endsWith))
                || requirements != null && requirements.everyNode();
        return new PoolDrift(List.copyOf(causes), everyNode, Optional.empty());
    }

    /**
     * A requirements cause, and whether it drifts every node: a new requirement on a custom label the base's nodes do
     * not carry fails Karpenter's Compatible for all of them.
     */
    private record RequirementsDrift(Map<String, Object> cause, boolean everyNode) {}

    /** Types the base allowed and this branch does not, and requirement changes on labels no type carries. */
    private static RequirementsDrift requirements(PoolPreview head, JsonNode basePool, InstanceCatalogue catalogue) {
        Set<String> now = new LinkedHashSet<>(head.selection().names());
        List<String> removed = new ArrayList<>();
        basePool.path("instance_types").forEach(type -> {
            if (!now.contains(type.asText())) {
                removed.add(type.asText());
            }
        });
        Set<String> carried = new LinkedHashSet<>(catalogue.labelKeys());
        List<LabelRequirement> before =
                uncarriedRequirements(basePool.path("rendered").path("pool"), head, carried);
        // Only the requirements: a node's labels are checked against them, not against the template's labels (whose
        // change is static drift).
        List<LabelRequirement> after = head.pool().requirements().stream()
                .filter(requirement -> !carried.contains(requirement.key()))
                .filter(requirement -> !requirement.where().contains("labels."))
                .toList();
        Set<String> baseLabels = labelKeys(basePool.path("rendered").path("pool"), head);
        List<String> fields = new ArrayList<>();
        Set<String> keys = new TreeSet<>();
        before.forEach(requirement -> keys.add(requirement.key()));
        after.forEach(requirement -> keys.add(requirement.key()));
        boolean provisioner = head.pool().rendered().object().kind().equals("Provisioner");
        String at = provisioner ? "spec.requirements" : "spec.template.spec.requirements";
        boolean everyNode = false;
        for (String key : keys) {
            // Nodes carry a well-known label, a template label, or a custom label a base requirement gave them; a
            // label they do not carry is undefined, which Compatible allows only to NotIn and DoesNotExist.
            boolean carriedByNodes = WELL_KNOWN_PREFIXES.stream().anyMatch(key::startsWith)
                    || baseLabels.contains(key)
                    || before.stream()
                            .anyMatch(r -> r.key().equals(key)
                                    && List.of("In", "Exists").contains(r.operator()));
            if (carriedByNodes ? narrowed(key, before, after) : addsCustomLabel(key, before, after)) {
                fields.add(at + " " + key);
                everyNode |= !carriedByNodes;
            }
        }
        if (!removed.isEmpty()) {
            fields.add(0, at + " (instance types)");
        }
        if (fields.isEmpty()) {
            return null;
        }
        Map<String, Object> cause = cause("requirements", fields);
        cause.put("instance_types", removed);
        return new RequirementsDrift(cause, everyNode);
    }

    /**
     * Whether some value of {@code key} (one either side names, another, or none: the label absent) is admitted by
     * the requirements {@code before} and not {@code after}: a node with it would drift.
     */
    static boolean narrowed(String key, List<LabelRequirement> before, List<LabelRequirement> after) {
        Set<String> candidates = new LinkedHashSet<>();
        before.stream().filter(r -> r.key().equals(key)).forEach(r -> candidates.addAll(r.values()));
        after.stream().filter(r -> r.key().equals(key)).forEach(r -> candidates.addAll(r.values()));
        candidates.add("\u0000another value");
        for (String value : candidates) {
            boolean admittedBefore =
                    before.stream().filter(r -> r.key().equals(key)).allMatch(r -> r.admits(value));
            boolean admittedAfter =
                    after.stream().filter(r -> r.key().equals(key)).allMatch(r -> r.admits(value));
            if (admittedBefore && !admittedAfter) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the requirements newly ask for a custom label the base's nodes lack (neither a requirement nor a template
     * label gave it to them): Karpenter's Compatible denies an undefined custom label unless NotIn or DoesNotExist,
     * while it allows an undefined well-known one (scheduling/requirements.go).
     */
    static boolean addsCustomLabel(String key, List<LabelRequirement> before, List<LabelRequirement> after) {
        boolean wellKnown = WELL_KNOWN_PREFIXES.stream().anyMatch(key::startsWith);
        return !wellKnown
                && before.stream().noneMatch(r -> r.key().equals(key))
                && after.stream()
                        .anyMatch(r -> r.key().equals(key)
                                && !r.operator().equals("NotIn")
                                && !r.operator().equals("DoesNotExist"));
    }

    private static final List<String> WELL_KNOWN_PREFIXES = List.of(
            "kubernetes.io/",
            "node.kubernetes.io/",
            "topology.kubernetes.io/",
            "karpenter.sh/",
            "karpenter.k8s.aws/",
            "topology.k8s.aws/");

    /** The keys of the base pool's template labels. */
    private static Set<String> labelKeys(JsonNode basePoolSpec, PoolPreview head) {
        Map<String, Object> spec = tree(basePoolSpec);
        boolean provisioner = head.pool().rendered().object().kind().equals("Provisioner");
        Map<String, Object> labels = provisioner
                ? PoolFacts.map(spec.get("labels"))
                : PoolFacts.map(
                        PoolFacts.map(PoolFacts.map(spec.get("template")).get("metadata"))
                                .get("labels"));
        return new LinkedHashSet<>(labels.keySet());
    }

    /** The base pool's requirements on labels no instance type carries. */
    private static List<LabelRequirement> uncarriedRequirements(
            JsonNode basePoolSpec, PoolPreview head, Set<String> carried) {
        Map<String, Object> spec = tree(basePoolSpec);
        boolean provisioner = head.pool().rendered().object().kind().equals("Provisioner");
        Map<String, Object> template = provisioner
                ? spec
                : PoolFacts.map(PoolFacts.map(spec.get("template")).get("spec"));
        List<LabelRequirement> on = new ArrayList<>();
        for (Object item : PoolFacts.list(template.get("requirements"))) {
            Map<String, Object> requirement = PoolFacts.map(item);
            String key = String.valueOf(requirement.get("key"));
            if (!carried.contains(key)) {
                on.add(new LabelRequirement(
                        key,
                        String.valueOf(requirement.get("operator")),
                        PoolFacts.list(requirement.get("values")).stream()
                                .map(String::valueOf)
                                .toList(),
                        Optional.empty(),
                        "base"));
            }
        }
        return on;
    }

    private static Map<String, Object> cause(String kind, List<String> fields) {
        Map<String, Object> cause = new LinkedHashMap<>();
        cause.put("kind", kind);
        cause.put("fields", List.copyOf(fields));
        return cause;
    }

    /** The fields among {@code fields} whose values differ, as hashing compares them. */
    private static List<String> differing(Map<String, Object> base, Map<String, Object> head, List<String> fields) {
        List<String> differing = new ArrayList<>();
        for (String field : fields) {
            if (!normal(base.get(field)).equals(normal(head.get(field)))) {
                differing.add("nodeClass.spec." + field);
            }
        }
        return differing;
    }

    /** Adds to {@code into} each key of base or head, outside {@code ignored}, whose values differ, as prefix.key. */
    private static void changed(
            Map<String, Object> base, Map<String, Object> head, Set<String> ignored, String prefix, List<String> into) {
        Set<String> keys = new TreeSet<>(base.keySet());
        keys.addAll(head.keySet());
        for (String key : keys) {
            if (!ignored.contains(key) && !normal(base.get(key)).equals(normal(head.get(key)))) {
                into.add(prefix + "." + key);
            }
        }
    }

    /**
     * A value as hashstructure compares it with SlicesAsSets, IgnoreZeroValue and ZeroNil: nulls vanish from maps;
     * lists become sorted lists of their normal forms; numbers compare by value. Scalars keep their type ("0" is not
     * 0). A false, 0, "", empty list or empty map written in the object stays: upstream's optional fields are
     * pointers, and IgnoreZeroValue skips only a nil one, not a pointer to false or 0.
     */
    static Object normal(Object value) {
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> normal = new TreeMap<>();
            map.forEach((key, item) -> {
                Object inner = normal(item);
                if (!isZero(inner)) {
                    normal.put(String.valueOf(key), inner);
                }
            });
            return normal;
        }
        if (value instanceof List<?> list) {
            List<String> normal = new ArrayList<>();
            for (Object item : list) {
                normal.add(String.valueOf(normal(item)));
            }
            normal.sort(null);
            return normal;
        }
        if (value instanceof Number number) {
            return "number:"
                    + new java.math.BigDecimal(number.toString())
                            .stripTrailingZeros()
                            .toPlainString();
        }
        if (value instanceof Boolean bool) {
            return "bool:" + bool;
        }
        return value == null ? "" : "string:" + value;
    }

    private static boolean isZero(Object normal) {
        return "".equals(normal);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tree(Object value) {
        if (value instanceof JsonNode node) {
            return node.isObject() ? JSON.convertValue(node, Map.class) : Map.of();
        }
        return value instanceof Map<?, ?> ? JSON.convertValue(value, Map.class) : Map.of();
    }

    /** The JSON entry. */
    Map<String, Object> json(Optional<Long> nodes, String when) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("causes", causes.isEmpty() ? List.of(cause("none", List.of())) : causes);
        json.put("every_node", everyNode);
        json.put("nodes_at_most", nodes.orElse(null));
        json.put("when", causes.isEmpty() ? null : when);
        note.ifPresent(text -> json.put("note", text));
        return json;
    }

    /** One line for the report: what drifts, how many nodes at most, when the budgets let it happen. */
    String line(String pool, Optional<Long> nodes, String when) {
        if (note.isPresent() && causes.isEmpty()) {
            return "`" + pool + "`: not compared (" + note.get() + ")";
        }
        if (causes.isEmpty()) {
            return "`" + pool + "`: replaces no node (nothing that drifts changed)";
        }
        List<String> what = new ArrayList<>();
        for (Map<String, Object> cause : causes) {
            @SuppressWarnings("unchecked")
            List<String> fields = (List<String>) cause.get("fields");
            String text = cause.get("kind") + " (" + String.join(", ", fields) + ")";
            if (cause.get("instance_types") instanceof List<?> types && !types.isEmpty()) {
                text += ", " + types.size() + " types no longer allowed: "
                        + String.join(
                                ", ",
                                types.stream().limit(8).map(String::valueOf).toList())
                        + (types.size() > 8 ? " and " + (types.size() - 8) + " more" : "");
            }
            what.add(text);
        }
        String count = nodes.map(String::valueOf).orElse("all");
        return "`" + pool + "`: drifts " + String.join("; ", what) + ": "
                + (everyNode ? "every node, at most " + count : "the nodes it excludes, of at most " + count)
                + "; budgets allow it " + when;
    }
}
