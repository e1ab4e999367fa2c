package dev.platform.karpenter.config;

import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ValuePath;
import dev.platform.karpenter.schema.ChartValuesSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * controller_values: any value of the release's chart values.yaml, in upstream's spelling, checked against that
 * release's values.yaml, except the values the project sets from its own settings and cannot give up (the cluster,
 * its endpoint, the interruption queue, the node instance profile, the service account and its role): the IAM
 * policies, the queue and the trust policy are made for exactly those.
 */
final class ControllerValuesReader {
    private static final String KEY = SettingsCatalogue.CONTROLLER_VALUES.key();

    /**
     * What sets an owned value.
     *
     * @param how     how the project sets it, completing "set by the project ..."
     * @param setting the setting (or source) it comes from, for short mentions
     */
    private record Owner(String how, String setting) {}

    /** Each value the project owns, by its path in every generation's spelling. */
    private static final Map<List<String>, Owner> OWNED = owned();

    private ControllerValuesReader() {}

    private static Map<List<String>, Owner> owned() {
        Map<List<String>, Owner> owned = new LinkedHashMap<>();
        for (HelmValueKeys keys : HelmValueKeys.everyGeneration()) {
            owned.put(
                    keys.clusterName().segments(),
                    new Owner("from cluster_name; write that setting instead", "cluster_name"));
            owned.put(
                    keys.clusterEndpoint().segments(),
                    new Owner("to the cluster's endpoint, which it reads from EKS", "read from EKS"));
            owned.put(
                    keys.interruptionQueue().segments(),
                    new Owner("to the interruption queue it creates (queue_name)", "queue_name"));
            keys.defaultInstanceProfile()
                    .ifPresent(path -> owned.put(
                            path.segments(),
                            new Owner(
                                    "to the instance profile of the node role (create_iam_role, iam_role_arn, "
                                            + "node_group_name)",
                                    "create_iam_role, iam_role_arn, node_group_name")));
        }
        owned.put(
                HelmValueKeys.SERVICE_ACCOUNT_NAME.segments(),
                new Owner(
                        "from karpenter_service_account, the account the controller role trusts; write that setting "
                                + "instead",
                        "karpenter_service_account"));
        owned.put(
                HelmValueKeys.SERVICE_ACCOUNT_ANNOTATIONS
                        .child(HelmValueKeys.ROLE_ARN_ANNOTATION)
                        .segments(),
                new Owner(
                        "to the controller role it creates with this release's policy (controller_identity; "
                                + "pod_identity binds that role without it)",
                        "controller_identity"));
        return Collections.unmodifiableMap(owned);
    }

    /** The values as written (maps in order, nulls kept: a null drops the chart's default), or empty. */
    static Map<String, Object> read(SettingsReader settings, KarpenterRelease release) {
        Map<String, Object> values = settings.get(SettingsCatalogue.CONTROLLER_VALUES);
        if (values.isEmpty()) {
            return Map.of();
        }
        ChartValuesSchema schema = ChartValuesSchema.of(release);
        refuseOwned(List.of(), values, schema);
        if (release.crdWebhookNamespace().isPresent()) {
            requireTheConversionWebhook(values, release);
        }
        schema.check(values).ifPresent(violation -> {
            throw new ConfigException(KEY + "." + violation.path() + ": " + violation.message()
                    + " (chart values of Karpenter " + schema.version() + ")");
        });
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = (Map<String, Object>) copy(values);
        return copy;
    }

    private static void refuseOwned(List<Object> path, Object value, ChartValuesSchema schema) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                List<Object> childPath = append(path, key);
                // Owned values are never inside a list.
                if (childPath.stream().allMatch(String.class::isInstance)) {
                    List<String> keys =
                            childPath.stream().map(String.class::cast).toList();
                    Owner owner = OWNED.get(keys);
                    if (owner != null && schema.takes(keys)) {
                        throw new ConfigException(where(childPath) + ": set by the project " + owner.how());
                    }
                    if (entry.getValue() == null) {
                        refuseRemovingOwned(childPath, keys, schema);
                    }
                }
                refuseOwned(childPath, entry.getValue(), schema);
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                refuseOwned(append(path, i), list.get(i), schema);
            }
        }
    }

    /**
     * On releases whose CRDs convert v1beta1 objects through the controller's webhook (1.0), the webhook must run:
     * without it NodePools and NodeClaims stored as v1beta1 cannot be read. (Where controller_values renames its
     * Service or moves its port, the CRD release follows: controller.ConversionWebhookValues.)
     */
    private static void requireTheConversionWebhook(Map<String, Object> values, KarpenterRelease release) {
        List<String> enabled = List.of("webhook", "enabled");
        Object value = new ValuePath(enabled).valueIn(values);
        if (value != null
                && !ControllerSettings.scalarAsString(where(List.copyOf(enabled)), value)
                        .equals("true")) {
            throw new ConfigException(where(List.copyOf(enabled)) + ": the CRDs of Karpenter " + release.chartVersion()
                    + " convert v1beta1 objects through the controller's webhook, which must run on this release;"
                    + " allowed: true (it may be turned off from 1.1 on), got "
                    + ConfigException.quote(String.valueOf(value)));
        }
    }

    /** A null drops the chart's value and the app's with it: not where it holds an owned value. */
    private static void refuseRemovingOwned(List<Object> path, List<String> keys, ChartValuesSchema schema) {
        OWNED.forEach((owned, owner) -> {
            if (owned.size() > keys.size() && owned.subList(0, keys.size()).equals(keys) && schema.takes(owned)) {
                throw new ConfigException(where(path) + ": null would remove " + ChartValuesSchema.display(owned)
                        + ", which the project sets (" + owner.setting() + ")");
            }
        });
    }

    private static String where(List<Object> path) {
        return KEY + "." + ChartValuesSchema.display(path);
    }

    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, inner) -> copy.put(String.valueOf(key), copy(inner)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(copy(item)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    private static List<Object> append(List<Object> path, Object segment) {
        List<Object> longer = new ArrayList<>(path);
        longer.add(segment);
        return List.copyOf(longer);
    }
}
