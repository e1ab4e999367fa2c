package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.CONTROLLER_AFFINITY;
import static dev.platform.karpenter.config.SettingsCatalogue.CONTROLLER_REPLICAS;
import static dev.platform.karpenter.config.SettingsCatalogue.CONTROLLER_RESOURCES;
import static dev.platform.karpenter.config.SettingsCatalogue.CONTROLLER_TOLERATIONS;
import static dev.platform.karpenter.config.SettingsCatalogue.STS_REGIONAL_ENDPOINTS;

import dev.platform.karpenter.release.KarpenterRelease;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Settings of the Karpenter controller's Helm release.
 *
 * @param stsRegionalEndpoints sts_regional_endpoints: annotate the service account to use regional STS endpoints
 * @param replicas             controller_replicas (default 2, the chart's default)
 * @param resources            controller_resources: requests and limits of the controller container (unset:
 *                             upstream guide's 1 CPU and 1Gi for both)
 * @param tolerations          controller_tolerations: tolerations of the controller pods (empty: the chart's)
 * @param affinity             controller_affinity: Kubernetes affinity of the controller pods (empty: the chart's),
 *                             whole numbers as Long so they render as 100, not 100.0
 * @param chartValues          controller_values: chart values over what the typed settings make, checked against
 *                             the release's values.yaml (maps in order; a null drops the value, the chart's too)
 * @param chartRepository      chart_repository: where both charts come from
 */
public record ControllerSettings(
        boolean stsRegionalEndpoints,
        int replicas,
        ControllerResources resources,
        List<Toleration> tolerations,
        Map<String, Object> affinity,
        Map<String, Object> chartValues,
        ChartRepository chartRepository,
        MonitoringSettings monitoring) {

    private static final Set<String> AFFINITY_KINDS = Set.of("nodeAffinity", "podAffinity", "podAntiAffinity");
    private static final Pattern AFFINITY_TEXT = Pattern.compile("[-A-Za-z0-9_./]{0,316}");

    static ControllerSettings from(SettingsReader settings, KarpenterRelease release, String region) {
        int replicas = settings.get(CONTROLLER_REPLICAS);
        List<Map<String, Object>> tolerationObjects = settings.get(CONTROLLER_TOLERATIONS);
        List<Toleration> tolerations = new ArrayList<>();
        for (int i = 0; i < tolerationObjects.size(); i++) {
            tolerations.add(Toleration.from("controller_tolerations[" + i + "]", tolerationObjects.get(i)));
        }
        Map<String, Object> affinity = settings.get(CONTROLLER_AFFINITY);
        for (String kind : affinity.keySet()) {
            ConfigException.require(
                    AFFINITY_KINDS.contains(kind),
                    () -> "controller_affinity." + kind
                            + " is not an affinity kind; allowed: nodeAffinity, podAffinity, podAntiAffinity");
        }
        requireAffinityText("controller_affinity", affinity);
        return new ControllerSettings(
                settings.get(STS_REGIONAL_ENDPOINTS),
                replicas,
                ControllerResources.from(CONTROLLER_RESOURCES.key(), settings.get(CONTROLLER_RESOURCES)),
                List.copyOf(tolerations),
                wholeNumbersAsLong(affinity),
                ControllerValuesReader.read(settings, release),
                ChartRepository.from(settings, region),
                MonitoringSettings.from(settings));
    }

    /**
     * Affinity holds field names, label keys and values, operators and names: none has room for other characters. A
     * selector's matchLabels is the one map keyed by label keys ("app.kubernetes.io/name") rather than field names.
     */
    private static void requireAffinityText(String key, Object value) {
        if (value instanceof Map<?, ?> labels && key.endsWith(".matchLabels")) {
            labels.forEach((label, v) -> {
                ConfigException.requireMatch(
                        AFFINITY_TEXT,
                        key,
                        "keys must be label keys (letters, digits, '-', '_', '.' or '/')",
                        label.toString());
                requireAffinityText(key + "." + label, v instanceof String ? v : String.valueOf(v));
            });
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((field, v) -> {
                ConfigException.require(
                        field.toString().matches("[A-Za-z]{1,64}"),
                        () -> key + " holds the field " + ConfigException.quote(field.toString())
                                + "; affinity fields are names such as nodeAffinity or matchExpressions");
                requireAffinityText(key + "." + field, v);
            });
        } else if (value instanceof List<?> list) {
            list.forEach(item -> requireAffinityText(key, item));
        } else if (value instanceof String text) {
            ConfigException.requireMatch(
                    AFFINITY_TEXT,
                    key,
                    "must hold label keys, label values, operators or names (letters, digits, '-', '_', '.' or '/')",
                    text);
        }
    }

    /** Strings stay as written; true/false and numbers become their text (HCL's 1.0 becomes "1"). */
    static String scalarAsString(String key, Object value) {
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof Boolean flag) {
            return flag.toString();
        }
        if (value instanceof Number number) {
            return new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        }
        throw SettingsReader.wrongType(key, "a string", value);
    }

    /** HCL numbers arrive as Double; Kubernetes integer fields (weight) should not render as 100.0. */
    @SuppressWarnings("unchecked")
    private static <T> T wholeNumbersAsLong(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k.toString(), wholeNumbersAsLong(v)));
            return (T) Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            return (T) list.stream().map(ControllerSettings::wholeNumbersAsLong).toList();
        }
        if (value instanceof Double number && number == Math.rint(number) && !number.isInfinite()) {
            return (T) Long.valueOf(number.longValue());
        }
        return value;
    }
}
