package dev.platform.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import imports.aws.sqs_queue.SqsQueue;
import imports.aws.sqs_queue.SqsQueueConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards the Terraform address of every resource: a renamed construct id (or a resource moved to another construct)
 * changes the address, and Terraform then destroys the resource in state and creates a new one (a new controller
 * role, an emptied interruption queue). The addresses of the reference configurations (terraform.tfvars.example and
 * src/test/resources/reference-configs) are kept in src/test/resources/resource-addresses.txt; a resource whose
 * address is gone fails this test unless its stack carries a {@code moved} block from the old address to a current
 * one (cdktf writes one for {@code resource.moveFromId("TYPE.OLD_ID")}, as Terraform JSON's top-level
 * {@code "moved": [{"from": ..., "to": ...}]}).
 *
 * <p>To change the addresses on purpose (a new resource, one removed, or after adding the moved block), regenerate
 * the snapshot and commit it with the change: {@code UPDATE_RESOURCE_ADDRESSES=1 mvn -B -q test
 * -Dtest=ResourceAddressesTest}. Keep a moved block until every deployment has applied it.
 */
class ResourceAddressesTest {
    private static final Path SNAPSHOT = Path.of("src/test/resources/resource-addresses.txt");
    private static final String HOW_TO_UPDATE =
            "an intended change is recorded with UPDATE_RESOURCE_ADDRESSES=1 mvn -B -q "
                    + "test -Dtest=ResourceAddressesTest (see " + ResourceAddressesTest.class.getSimpleName() + ")";

    @RegisterExtension
    static final Synthesized REFERENCE = Synthesized.of(TestConfigs.referenceConfigurations());

    @Test
    void everyResourceKeepsItsAddressOrDeclaresItsMove() throws IOException {
        List<String> stacks = Json.fieldNames(REFERENCE.manifest().path("stacks"));
        SortedMap<String, SortedSet<String>> current = new TreeMap<>();
        Map<String, Map<String, String>> moves = new HashMap<>();
        for (String stack : stacks) {
            current.put(stack, addresses(REFERENCE.stack(stack)));
            moves.put(stack, moves(REFERENCE.stack(stack)));
        }
        if (System.getenv("UPDATE_RESOURCE_ADDRESSES") != null) {
            Files.writeString(SNAPSHOT, render(current));
        }

        assertThat(problems(read(Files.readString(SNAPSHOT)), current, moves))
                .as(HOW_TO_UPDATE)
                .isEmpty();
        assertThat(current.values())
                .as("the reference configurations make resources")
                .allSatisfy(a -> assertThat(a).isNotEmpty());
    }

    /** The guard itself, on a queue whose construct id changed: caught without a moved block, accepted with one. */
    @Test
    void aChangedAddressFailsUnlessAMovedBlockNamesItsOldAddress(@TempDir Path outdir) {
        SortedMap<String, SortedSet<String>> snapshot = read("demo-interruption aws_sqs_queue.queue\n");
        App app = new App(AppConfig.builder().outdir(outdir.toString()).build());
        TerraformStack stack = new TerraformStack(app, "demo-interruption");
        new AwsProvider(
                stack, "aws", AwsProviderConfig.builder().region("us-west-2").build());
        new SqsQueue(stack, "renamed", SqsQueueConfig.builder().name("demo").build());
        TerraformStack movedStack = new TerraformStack(app, "moved");
        new AwsProvider(
                movedStack,
                "aws",
                AwsProviderConfig.builder().region("us-west-2").build());
        new SqsQueue(
                        movedStack,
                        "renamed",
                        SqsQueueConfig.builder().name("demo").build())
                .moveFromId("aws_sqs_queue.queue");
        app.synth();
        JsonNode renamed = Json.read(outdir.resolve("stacks/demo-interruption/cdk.tf.json"));
        JsonNode withMove = Json.read(outdir.resolve("stacks/moved/cdk.tf.json"));

        assertThat(moves(withMove)).containsExactly(Map.entry("aws_sqs_queue.queue", "aws_sqs_queue.renamed"));
        assertThat(problems(
                        snapshot,
                        Map.of("demo-interruption", addresses(renamed)),
                        Map.of("demo-interruption", moves(renamed))))
                .containsExactly(
                        "demo-interruption: aws_sqs_queue.queue is gone without a moved block: Terraform would destroy it",
                        "demo-interruption: aws_sqs_queue.renamed is new");
        assertThat(problems(
                        snapshot,
                        Map.of("demo-interruption", addresses(withMove)),
                        Map.of("demo-interruption", moves(withMove))))
                .isEmpty();
    }

    /** TYPE.ID of every managed resource of a stack (data sources hold no state worth keeping). */
    private static SortedSet<String> addresses(JsonNode stack) {
        SortedSet<String> addresses = new TreeSet<>();
        stack.path("resource")
                .fields()
                .forEachRemaining(type ->
                        Json.fieldNames(type.getValue()).forEach(id -> addresses.add(type.getKey() + "." + id)));
        return addresses;
    }

    /** The stack's moved blocks, old address to new. */
    private static Map<String, String> moves(JsonNode stack) {
        Map<String, String> moves = new TreeMap<>();
        stack.path("moved")
                .forEach(moved ->
                        moves.put(moved.path("from").asText(), moved.path("to").asText()));
        return moves;
    }

    private static List<String> problems(
            SortedMap<String, SortedSet<String>> snapshot,
            Map<String, SortedSet<String>> current,
            Map<String, Map<String, String>> moves) {
        List<String> problems = new ArrayList<>();
        Set<String> stacks = new TreeSet<>(snapshot.keySet());
        stacks.addAll(current.keySet());
        for (String stack : stacks) {
            SortedSet<String> before = snapshot.getOrDefault(stack, new TreeSet<>());
            SortedSet<String> now = current.getOrDefault(stack, new TreeSet<>());
            Map<String, String> moved = moves.getOrDefault(stack, Map.of());
            for (String address : before) {
                if (!now.contains(address) && !now.contains(moved.getOrDefault(address, ""))) {
                    problems.add(stack + ": " + address + " is gone without a moved block: Terraform would destroy it");
                }
            }
            for (String address : now) {
                if (!before.contains(address) && !moved.containsValue(address)) {
                    problems.add(stack + ": " + address + " is new");
                }
            }
        }
        return problems;
    }

    /** Lines "STACK TYPE.ID", sorted, after a comment saying what the file is. */
    private static String render(SortedMap<String, SortedSet<String>> addresses) {
        StringBuilder text = new StringBuilder(
                "# Resource addresses of the reference configurations, checked by ResourceAddressesTest.\n");
        addresses.forEach((stack, all) -> all.forEach(
                address -> text.append(stack).append(' ').append(address).append('\n')));
        return text.toString();
    }

    private static SortedMap<String, SortedSet<String>> read(String snapshot) {
        SortedMap<String, SortedSet<String>> addresses = new TreeMap<>();
        snapshot.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .forEach(line -> {
                    String[] stackAndAddress = line.split(" ", 2);
                    addresses
                            .computeIfAbsent(stackAndAddress[0], stack -> new TreeSet<>())
                            .add(stackAndAddress[1]);
                });
        return addresses;
    }
}
