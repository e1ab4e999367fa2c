package dev.platform.karpenter.testing.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;

/**
 * Core Kubernetes objects read through the typed fabric8 model, strictly, as the API server decodes them: a field
 * the kind does not have is an error (the model's catch-all map for unknown fields is switched off), and so is a
 * value of the wrong type (no coercion: {@code replicas: "3"}, an annotation {@code true}, a port {@code "80"}).
 * A kind without a model here is an error too, so new content cannot slip past unchecked.
 */
public final class CoreObjects {
    /** "apiVersion Kind" to its model. */
    private static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1 ServiceAccount", ServiceAccount.class),
            Map.entry("v1 ConfigMap", ConfigMap.class),
            Map.entry("v1 Secret", Secret.class),
            Map.entry("v1 Service", Service.class),
            Map.entry("apps/v1 Deployment", Deployment.class),
            Map.entry("batch/v1 Job", Job.class),
            Map.entry(
                    "policy/v1 PodDisruptionBudget",
                    io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class),
            // helm template without a cluster assumes Kubernetes 1.20, so the charts pick this version; a real
            // cluster gets policy/v1, whose spec is the same.
            Map.entry(
                    "policy/v1beta1 PodDisruptionBudget",
                    io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget.class),
            Map.entry("rbac.authorization.k8s.io/v1 ClusterRole", ClusterRole.class),
            Map.entry("rbac.authorization.k8s.io/v1 ClusterRoleBinding", ClusterRoleBinding.class),
            Map.entry("rbac.authorization.k8s.io/v1 Role", Role.class),
            Map.entry("rbac.authorization.k8s.io/v1 RoleBinding", RoleBinding.class),
            Map.entry(
                    "admissionregistration.k8s.io/v1 MutatingWebhookConfiguration", MutatingWebhookConfiguration.class),
            Map.entry(
                    "admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration",
                    ValidatingWebhookConfiguration.class),
            Map.entry("apiextensions.k8s.io/v1 CustomResourceDefinition", CustomResourceDefinition.class));

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(
                    LogicalType.Textual,
                    c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .annotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(Annotated a) {
                    return Boolean.FALSE;
                }
            })
            .build();

    private CoreObjects() {}

    /** Whether a typed model exists for the object's apiVersion and kind. */
    public static boolean isCore(JsonNode object) {
        return MODELS.containsKey(key(object));
    }

    /** Problems decoding {@code object} with its typed model; empty when it decodes strictly. */
    public static List<String> errors(JsonNode object) {
        Class<?> model = MODELS.get(key(object));
        if (model == null) {
            return List.of("no typed model for " + key(object));
        }
        return decode(object, model);
    }

    /** Problems decoding {@code metadata} as an ObjectMeta (custom resources share it with core kinds). */
    public static List<String> metadataErrors(JsonNode metadata) {
        List<String> errors = decode(metadata, ObjectMeta.class);
        if (errors.isEmpty() && metadata.path("name").asText().isEmpty()) {
            return List.of("metadata.name: Required value");
        }
        return errors;
    }

    /** Fails when {@code object} does not decode strictly. */
    public static void assertDecodes(JsonNode object) {
        List<String> errors = errors(object);
        if (!errors.isEmpty()) {
            throw new AssertionError(HelmRender.describe(object) + " would be rejected: " + String.join("; ", errors));
        }
    }

    private static List<String> decode(JsonNode json, Class<?> model) {
        try {
            STRICT.treeToValue(json, model);
            return List.of();
        } catch (MismatchedInputException e) {
            return List.of(e.getOriginalMessage() + " at " + e.getPathReference());
        } catch (JsonProcessingException e) {
            return List.of(e.getOriginalMessage());
        }
    }

    private static String key(JsonNode object) {
        return object.path("apiVersion").asText() + " " + object.path("kind").asText();
    }
}
