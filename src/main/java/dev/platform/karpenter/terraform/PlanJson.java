package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a saved plan says, read from {@code terraform show -json PLAN}: which upstream outputs it read (a stack reads
 * its producers' outputs through {@code terraform_remote_state}, whose values the plan's prior state holds) and
 * what it would change (resources and outputs), in a form two plans can be compared by.
 */
final class PlanJson {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A reference to one output of a remote state, as cdktf writes cross-stack references. */
    private static final Pattern OUTPUT_REFERENCE =
            Pattern.compile("data\\.terraform_remote_state\\.([A-Za-z0-9_-]+)\\.outputs(?:\\.([A-Za-z0-9_-]+))?");

    private PlanJson() {}

    static JsonNode parse(String document) {
        try {
            return JSON.readTree(document);
        } catch (IOException e) {
            throw new UncheckedIOException("terraform show -json printed no JSON document", e);
        }
    }

    /**
     * The outputs of other stacks a stack's configuration uses, as "remote state.output"; "remote state.*" where it
     * uses a remote state's outputs as a whole.
     */
    static Set<String> referencedOutputs(Path stackDirectory) {
        String configuration;
        try {
            configuration = Files.readString(stackDirectory.resolve("cdk.tf.json"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> referenced = new LinkedHashSet<>();
        Matcher m = OUTPUT_REFERENCE.matcher(configuration);
        while (m.find()) {
            referenced.add(m.group(1) + "." + (m.group(2) == null ? "*" : m.group(2)));
        }
        return referenced;
    }

    /**
     * The digest of each referenced output value the plan read, "remote state.output" to the SHA-256 of its JSON
     * (digests, not values: an output may be sensitive, and the manifest travels as an artifact). An output the
     * plan could not read (absent) gets none.
     */
    static Map<String, String> reads(JsonNode plan, Set<String> referenced) {
        Map<String, String> reads = new TreeMap<>();
        for (JsonNode resource : plan.at("/prior_state/values/root_module/resources")) {
            if (!resource.path("mode").asText().equals("data")
                    || !resource.path("type").asText().equals("terraform_remote_state")) {
                continue;
            }
            String name = resource.path("name").asText();
            JsonNode outputs = resource.at("/values/outputs");
            for (Iterator<Map.Entry<String, JsonNode>> it = outputs.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> output = it.next();
                String key = name + "." + output.getKey();
                if (referenced.contains(key) || referenced.contains(name + ".*")) {
                    reads.put(key, SavedPlans.sha256(output.getValue().toString()));
                }
            }
        }
        return reads;
    }

    /**
     * What the plan would do, comparable between two plans of one stack: each resource change (address, reason and
     * change: actions, before and after values, what is unknown or sensitive) and each output change. Leaves out
     * what differs between two plans of the same changes (the time of planning, the prior state's data sources).
     */
    static JsonNode changes(JsonNode plan) {
        ObjectNode changes = JSON.createObjectNode();
        Map<String, JsonNode> resources = new TreeMap<>();
        for (JsonNode change : plan.path("resource_changes")) {
            ObjectNode entry = JSON.createObjectNode();
            entry.set("action_reason", change.path("action_reason"));
            entry.set("change", change.path("change"));
            resources.put(change.path("address").asText(), entry);
        }
        ObjectNode byAddress = changes.putObject("resource_changes");
        resources.forEach(byAddress::set);
        changes.set("output_changes", plan.path("output_changes"));
        return changes;
    }

    /** The addresses whose planned change differs between two plans, and "output NAME" for outputs; sorted. */
    static Set<String> differences(JsonNode approved, JsonNode now) {
        Set<String> differ = new java.util.TreeSet<>();
        compare(approved.path("resource_changes"), now.path("resource_changes"), "", differ);
        compare(approved.path("output_changes"), now.path("output_changes"), "output ", differ);
        return differ;
    }

    private static void compare(JsonNode a, JsonNode b, String prefix, Set<String> differ) {
        Map<String, JsonNode> all = new LinkedHashMap<>();
        a.fields().forEachRemaining(e -> all.put(e.getKey(), e.getValue()));
        b.fields().forEachRemaining(e -> all.putIfAbsent(e.getKey(), e.getValue()));
        for (String key : all.keySet()) {
            if (!a.path(key).equals(b.path(key))) {
                differ.add(prefix + key);
            }
        }
    }
}
