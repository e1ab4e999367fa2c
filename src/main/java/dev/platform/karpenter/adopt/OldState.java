package dev.platform.karpenter.adopt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The resource instances of an old Terraform root, read from {@code terraform show -json} output or from a raw
 * {@code .tfstate} file (format 4), whichever the file is.
 */
final class OldState {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** An instance key in a module address: [0] or ["name"]. */
    private static final Pattern MODULE_KEY = Pattern.compile("\\[(\\d+|\"(?:[^\"\\\\]|\\\\.)*\")]");

    private OldState() {}

    /**
     * One resource instance.
     *
     * @param module     the module instance's address, e.g. "module.karpenter"; empty at the root
     * @param managed    a resource (true) or a data source (false)
     * @param indexKey   the count index or for_each key; a missing node without either
     * @param attributes the instance's attributes as the state holds them
     */
    record Resource(String module, boolean managed, String type, String name, JsonNode indexKey, JsonNode attributes) {
        /** "aws_iam_role.irsa", "data.aws_partition.current": the address inside its module, without the index. */
        String local() {
            return (managed ? "" : "data.") + type + "." + name;
        }

        /**
         * The resource's address without any instance key, as a removed block's {@code from} must name it (a module
         * called with count or for_each included: "module.karpenter[0]" is written "module.karpenter").
         */
        String resourceAddress() {
            return (module.isEmpty() ? "" : MODULE_KEY.matcher(module).replaceAll("") + ".") + local();
        }

        /** The instance's full address, e.g. {@code module.karpenter.aws_cloudwatch_event_rule.this["health_event"]}. */
        String address() {
            String index = indexKey.isMissingNode() || indexKey.isNull()
                    ? ""
                    : indexKey.isNumber() ? "[" + indexKey.asText() + "]" : "[" + indexKey + "]";
            return resourceAddress() + index;
        }

        boolean hasIndex() {
            return !indexKey.isMissingNode() && !indexKey.isNull();
        }

        String text(String attribute) {
            JsonNode value = attributes.path(attribute);
            return value.isNull() || value.isMissingNode() ? "" : value.asText();
        }
    }

    static List<Resource> read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read a Terraform state: " + e.getMessage());
        }
        List<Resource> resources = new ArrayList<>();
        if (root != null && root.has("values")) {
            module(root.path("values").path("root_module"), "", resources);
        } else if (root != null && root.path("resources").isArray()) {
            for (JsonNode resource : root.path("resources")) {
                for (JsonNode instance : resource.path("instances")) {
                    resources.add(new Resource(
                            resource.path("module").asText(""),
                            !resource.path("mode").asText().equals("data"),
                            resource.path("type").asText(),
                            resource.path("name").asText(),
                            instance.path("index_key"),
                            instance.path("attributes")));
                }
            }
        } else if (root == null || !root.has("format_version")) {
            throw new ConfigException(
                    file + ": not a Terraform state: expected terraform show -json output or a" + " .tfstate file");
        }
        return resources;
    }

    /** A module of {@code terraform show -json}: its resources, then its child modules. */
    private static void module(JsonNode module, String address, List<Resource> into) {
        for (JsonNode resource : module.path("resources")) {
            into.add(new Resource(
                    address,
                    resource.path("mode").asText().equals("managed"),
                    resource.path("type").asText(),
                    resource.path("name").asText(),
                    resource.path("index"),
                    resource.path("values")));
        }
        for (JsonNode child : module.path("child_modules")) {
            module(child, child.path("address").asText(), into);
        }
    }
}
