package dev.platform.karpenter.controller;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The karpenter-crd chart's webhook values on releases whose CRDs convert through the controller's webhook (1.0):
 * the CRDs must name the Service the controller chart makes, in the release's namespace, on its webhook port. The
 * chart's defaults (service karpenter, port 8443) are written only where controller_values moves them, so the values
 * of a release that keeps them stay as they were.
 */
final class ConversionWebhookValues {
    static final String DEFAULT_SERVICE = KarpenterCharts.CONTROLLER_CHART;
    static final String DEFAULT_PORT = "8443";
    private static final int MAX_NAME = 63;

    private ConversionWebhookValues() {}

    /** The values under the CRD chart's "webhook" for a controller release given {@code controllerValues}. */
    static Map<String, Object> of(String namespace, Map<String, Object> controllerValues) {
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("serviceNamespace", namespace);
        String service = serviceName(controllerValues);
        if (!service.equals(DEFAULT_SERVICE)) {
            webhook.put("serviceName", service);
        }
        Object port = map(controllerValues.get("webhook")).get("port");
        if (port != null && !number(port).equals(DEFAULT_PORT)) {
            webhook.put("port", Long.parseLong(number(port)));
        }
        return webhook;
    }

    /**
     * The controller chart's Service name (its karpenter.fullname helper, for the release named karpenter):
     * fullnameOverride, else the release name where it contains nameOverride, else both joined; at most 63 characters.
     */
    static String serviceName(Map<String, Object> controllerValues) {
        Object fullname = controllerValues.get("fullnameOverride");
        if (fullname != null && !String.valueOf(fullname).isEmpty()) {
            return trimmed(String.valueOf(fullname));
        }
        Object override = controllerValues.get("nameOverride");
        String name = override == null || String.valueOf(override).isEmpty()
                ? KarpenterCharts.CONTROLLER_CHART
                : String.valueOf(override);
        String release = KarpenterCharts.CONTROLLER_CHART;
        return release.contains(name) ? trimmed(release) : trimmed(release + "-" + name);
    }

    private static String trimmed(String name) {
        String cut = name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
        while (cut.endsWith("-")) {
            cut = cut.substring(0, cut.length() - 1);
        }
        return cut;
    }

    private static String number(Object value) {
        return new BigDecimal(String.valueOf(value)).stripTrailingZeros().toPlainString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
