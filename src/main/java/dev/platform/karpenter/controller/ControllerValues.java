package dev.platform.karpenter.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ControllerIdentity;
import dev.platform.karpenter.config.ControllerResources;
import dev.platform.karpenter.config.MonitoringSettings;
import dev.platform.karpenter.config.TerraformDocument;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.config.Toleration;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.ValuePath;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The values of the karpenter chart, typed, placed at the keys of the chart generation they are for.
 *
 * <p>Rendered as YAML by Jackson, which double-quotes every string: the annotation "true" and toleration values
 * stay strings. Cross-stack and data-source references are Terraform tokens that cdktf turns into
 * {@code ${...}} interpolations inside the quoted scalars; what they resolve to (ARNs, queue and profile names,
 * the https endpoint) never contains a quote or backslash, so the YAML stays valid after interpolation.
 *
 * <p>controller_values is merged over the typed values last, as Helm merges values files: maps key by key, a list or
 * scalar replaces, a null stays null (which makes Helm drop the chart's default too). So controller_values overrides
 * what controller_replicas, controller_resources, controller_tolerations, controller_affinity and
 * sts_regional_endpoints make; the values the project owns never reach it (config refuses them).
 *
 * @param defaultInstanceProfile present only where the chart reads one (0.x)
 * @param affinity               controller_affinity as written
 * @param overrides              controller_values
 * @param poolLabels             the pool label of every generation whose pools are declared, which the controller's
 *                               required node terms exclude
 * @param reservedCapacity       whether to turn on the ReservedCapacity feature gate (ClusterConfig says when)
 * @param gatesTurnedOn          the add-on kinds' feature gates to turn on (ClusterConfig says which)
 * @param monitoring             monitoring: with prometheus_rules, the chart's ServiceMonitor with its labels
 */
public record ControllerValues(
        HelmValueKeys keys,
        String clusterName,
        String clusterEndpoint,
        String interruptionQueue,
        Optional<String> defaultInstanceProfile,
        String serviceAccountName,
        Map<String, String> serviceAccountAnnotations,
        int replicas,
        ControllerResources resources,
        List<Toleration> tolerations,
        Map<String, Object> affinity,
        Map<String, Object> overrides,
        List<String> poolLabels,
        boolean reservedCapacity,
        List<ValuePath> gatesTurnedOn,
        MonitoringSettings monitoring) {

    public static final String ROLE_ARN_ANNOTATION = HelmValueKeys.ROLE_ARN_ANNOTATION;
    public static final String STS_REGIONAL_ENDPOINTS_ANNOTATION = "eks.amazonaws.com/sts-regional-endpoints";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build();

    /**
     * The values for one cluster. {@code roleArn} is used with IRSA only (Pod Identity binds the role through an
     * association instead), {@code instanceProfile} only where the chart reads one.
     */
    public static ControllerValues of(
            ClusterConfig config, String clusterEndpoint, String roleArn, String instanceProfile, String queueName) {
        HelmValueKeys keys = config.apis().valueKeys();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (config.iam().controllerIdentity() == ControllerIdentity.IRSA) {
            annotations.put(ROLE_ARN_ANNOTATION, roleArn);
        }
        if (config.controller().stsRegionalEndpoints()) {
            annotations.put(STS_REGIONAL_ENDPOINTS_ANNOTATION, "true");
        }
        return new ControllerValues(
                keys,
                config.clusterName(),
                clusterEndpoint,
                queueName,
                keys.defaultInstanceProfile().map(path -> instanceProfile),
                config.serviceAccount(),
                Collections.unmodifiableMap(annotations),
                config.controller().replicas(),
                config.controller().resources(),
                config.controller().tolerations(),
                config.controller().affinity(),
                config.controller().chartValues(),
                config.apis().rendered().stream()
                        .map(ApiGeneration::poolLabel)
                        .distinct()
                        .toList(),
                config.turnsOnReservedCapacity(RenderedPools.of(config).allowsReserved()),
                config.gatesTurnedOn(),
                config.controller().monitoring());
    }

    /**
     * The affinity with the chart's rule that keeps the controller off the nodes it manages. Helm merges maps but
     * replaces lists, so required node selector terms of our own would drop the chart's {@code <pool label>
     * DoesNotExist} term: each of ours gets that expression for the label of every generation whose pools are
     * declared (terms are ORed, expressions ANDed). Without required terms of ours, the chart's stay.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> offKarpenterNodes(Map<String, Object> affinity, List<String> poolLabels) {
        Object nodeAffinity = affinity.get("nodeAffinity");
        if (!(nodeAffinity instanceof Map<?, ?> node)
                || !(node.get("requiredDuringSchedulingIgnoredDuringExecution") instanceof Map<?, ?> required)
                || !(required.get("nodeSelectorTerms") instanceof List<?> terms)) {
            return affinity;
        }
        List<Object> patchedTerms = terms.stream()
                .map(term -> {
                    // Terms as the Kubernetes API takes them; anything else (controller_values is free-form there)
                    // stays as written for the API server to refuse.
                    if (!(term instanceof Map<?, ?> termMap)
                            || !(((Map<String, Object>) termMap).getOrDefault("matchExpressions", List.of())
                                    instanceof List<?> written)) {
                        return term;
                    }
                    Map<String, Object> patched = new LinkedHashMap<>((Map<String, Object>) termMap);
                    List<Object> expressions = new ArrayList<>(written);
                    for (String poolLabel : poolLabels) {
                        if (expressions.stream()
                                .noneMatch(e -> e instanceof Map<?, ?> m && poolLabel.equals(m.get("key")))) {
                            expressions.add(Map.of("key", poolLabel, "operator", "DoesNotExist"));
                        }
                    }
                    patched.put("matchExpressions", Collections.unmodifiableList(expressions));
                    return (Object) Collections.unmodifiableMap(patched);
                })
                .toList();
        Map<String, Object> patchedRequired = new LinkedHashMap<>((Map<String, Object>) required);
        patchedRequired.put("nodeSelectorTerms", patchedTerms);
        Map<String, Object> patchedNode = new LinkedHashMap<>((Map<String, Object>) node);
        patchedNode.put("requiredDuringSchedulingIgnoredDuringExecution", Collections.unmodifiableMap(patchedRequired));
        Map<String, Object> patched = new LinkedHashMap<>(affinity);
        patched.put("nodeAffinity", Collections.unmodifiableMap(patchedNode));
        return Collections.unmodifiableMap(patched);
    }

    /**
     * The values tree; settings left at the chart's default (no resources, tolerations or affinity) are omitted. The
     * affinity, merged, keeps the controller off Karpenter's nodes whoever wrote its required node terms.
     */
    public ObjectNode toTree() {
        return tree(UnaryOperator.identity());
    }

    /** The tree with each value that is a Terraform reference passed through {@code reference}. */
    @SuppressWarnings("unchecked")
    private ObjectNode tree(UnaryOperator<String> reference) {
        ObjectNode root = JSON.createObjectNode();
        put(root, keys.clusterName(), clusterName);
        put(root, keys.clusterEndpoint(), reference.apply(clusterEndpoint));
        put(root, keys.interruptionQueue(), reference.apply(interruptionQueue));
        keys.defaultInstanceProfile()
                .ifPresent(path -> put(root, path, reference.apply(defaultInstanceProfile.orElseThrow())));
        put(root, HelmValueKeys.SERVICE_ACCOUNT_NAME, serviceAccountName);
        if (!serviceAccountAnnotations.isEmpty()) {
            Map<String, String> annotations = new LinkedHashMap<>(serviceAccountAnnotations);
            annotations.computeIfPresent(ROLE_ARN_ANNOTATION, (key, arn) -> reference.apply(arn));
            put(root, HelmValueKeys.SERVICE_ACCOUNT_ANNOTATIONS, annotations);
        }
        put(root, HelmValueKeys.REPLICAS, replicas);
        if (!resources.isChartDefault()) {
            put(root, HelmValueKeys.CONTROLLER_RESOURCES, resources.toMap());
        }
        if (!tolerations.isEmpty()) {
            put(
                    root,
                    HelmValueKeys.TOLERATIONS,
                    tolerations.stream().map(Toleration::toMap).toList());
        }
        if (!affinity.isEmpty()) {
            put(root, HelmValueKeys.AFFINITY, affinity);
        }
        if (reservedCapacity) {
            put(root, HelmValueKeys.RESERVED_CAPACITY_GATE, true);
        }
        gatesTurnedOn.forEach(gate -> put(root, gate, true));
        if (monitoring.prometheusRules()) {
            // Every release's chart has both keys (ControllerStackTest checks each one's values.yaml).
            put(root, HelmValueKeys.SERVICE_MONITOR_ENABLED, true);
            if (!monitoring.labels().isEmpty()) {
                put(root, HelmValueKeys.SERVICE_MONITOR_LABELS, monitoring.labels());
            }
        }
        merge(root, overrides);
        String affinityKey = HelmValueKeys.AFFINITY.segments().get(0);
        if (root.get(affinityKey) instanceof ObjectNode merged) {
            root.set(
                    affinityKey, JSON.valueToTree(offKarpenterNodes(JSON.convertValue(merged, Map.class), poolLabels)));
        }
        return root;
    }

    /** Helm's merge of a values file over another: maps key by key; lists, scalars and nulls replace. */
    private static void merge(ObjectNode target, Map<String, Object> overrides) {
        overrides.forEach((key, value) -> {
            if (value instanceof Map<?, ?> map && target.get(key) instanceof ObjectNode inner) {
                @SuppressWarnings("unchecked")
                Map<String, Object> nested = (Map<String, Object>) map;
                merge(inner, nested);
            } else {
                target.set(key, JSON.valueToTree(value));
            }
        });
    }

    /**
     * The values as the release's Terraform string: every value literal (affinity, tolerations, controller_values
     * are the user's) but the references of the endpoint, queue, instance profile and role the project placed.
     */
    public String toYaml() {
        TerraformDocument document = new TerraformDocument();
        return document.toTerraform(write(tree(document::referenceOrText)));
    }

    /** A values document setting one key, e.g. the CRD chart's webhook namespace. */
    static String yaml(ValuePath path, Object value) {
        ObjectNode root = JSON.createObjectNode();
        put(root, path, value);
        return TerraformStrings.literal(write(root));
    }

    private static String write(ObjectNode root) {
        try {
            return YAML.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void put(ObjectNode root, ValuePath path, Object value) {
        List<String> segments = path.segments();
        ObjectNode parent = root;
        for (String segment : segments.subList(0, segments.size() - 1)) {
            parent = parent.withObjectProperty(segment);
        }
        JsonNode node = JSON.valueToTree(value);
        parent.set(segments.get(segments.size() - 1), node);
    }
}
