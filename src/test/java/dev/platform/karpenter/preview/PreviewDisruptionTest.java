package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/preview's disruption timeline per pool and release: v1 budgets by reason, v1beta1 (0.34 to 0.37) budgets
 * covering every reason, none before 0.34. 2027-01-04 is a Monday.
 */
@KernelOnlyThroughSynthesized
class PreviewDisruptionTest {
    private static final String MONDAY = "2027-01-04T00:00:00Z";
    /** Drift only on weekdays 09:00-17:00 UTC (closed otherwise), at most 20% of the nodes at once for any reason. */
    private static final String WORKING_HOURS = "node_pool_spec = { disruption = { budgets = ["
            + "{ nodes = \"20%\" },"
            + " { nodes = \"0\", reasons = [\"Drifted\"], schedule = \"0 17 * * mon-thu\", duration = \"16h\" },"
            + " { nodes = \"0\", reasons = [\"Drifted\"], schedule = \"0 17 * * fri\", duration = \"64h\" }] } }";

    @TempDir
    Path dir;

    private final Console console = new Console();

    private int run(String... args) {
        console.reset();
        return PreviewCommand.run(dir, args, Map.of(), console.out(), console.err());
    }

    private JsonNode disruption(String release, String nodes, String... lines) throws IOException {
        Path file = dir.resolve("c.tfvars");
        Files.writeString(file, TestConfigs.tfvars(release, lines));
        List<String> args = new ArrayList<>(List.of("--json", "--at", MONDAY));
        if (nodes != null) {
            args.addAll(List.of("--nodes", nodes));
        }
        args.add(file.toString());
        assertThat(run(args.toArray(String[]::new))).as(console.stderr()).isZero();
        return Json.mapper().readTree(console.stdout()).at("/demo/pools/default/disruption");
    }

    private static List<String> windows(JsonNode disruption) {
        List<String> lines = new ArrayList<>();
        disruption
                .path("windows")
                .forEach(window -> lines.add(window.path("from").asText() + ".."
                        + window.path("to").asText() + " " + window.path("allowed")));
        return lines;
    }

    @Test
    void v1BudgetsByReasonWithTheNodeCountGiven() throws IOException {
        JsonNode disruption = disruption(TestConfigs.V1, "12", WORKING_HOURS);
        assertThat(disruption.path("nodes").asLong()).isEqualTo(12);
        assertThat(disruption.path("node_count").asText()).isEqualTo("--nodes");
        assertThat(disruption.path("from").asText()).isEqualTo(MONDAY);
        assertThat(disruption.path("to").asText()).isEqualTo("2027-01-11T00:00:00Z");
        List<String> windows = windows(disruption);
        // Sunday 17:00 + 64h reaches Monday 09:00: a window opened before --at; 20% of 12 rounds up to 3.
        assertThat(windows.get(0))
                .isEqualTo("2027-01-04T00:00:00Z..2027-01-04T09:00:00Z"
                        + " {\"Drifted\":0,\"Underutilized\":3,\"Empty\":3}");
        assertThat(windows.get(1))
                .isEqualTo("2027-01-04T09:00:00Z..2027-01-04T17:00:00Z"
                        + " {\"Drifted\":3,\"Underutilized\":3,\"Empty\":3}");
        assertThat(windows).hasSize(11);
        assertThat(windows.get(10))
                .isEqualTo("2027-01-08T17:00:00Z..2027-01-11T00:00:00Z"
                        + " {\"Drifted\":0,\"Underutilized\":3,\"Empty\":3}");
        assertThat(disruption.path("expiry").asText()).startsWith("forceful: no budget applies");
        // 12 nodes, 3 at once, 10 minutes each: four passes.
        assertThat(disruption.path("drift_rollout_minutes").asLong()).isEqualTo(9 * 60 + 40);
    }

    /** Without --nodes: the most nodes the limits allow; without a budget: the CRD's default, 10%. */
    @Test
    void theDefaultBudgetOverTheMostNodesTheLimitsAllow() throws IOException {
        JsonNode disruption = disruption(TestConfigs.V1, null);
        assertThat(disruption.path("node_count").asText()).isEqualTo("max nodes");
        assertThat(disruption.path("nodes").asLong()).isEqualTo(540);
        assertThat(windows(disruption))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z"
                        + " {\"Drifted\":54,\"Underutilized\":54,\"Empty\":54}");
    }

    /** A pool whose limits bound no node count: percentages as written, and the command says so. */
    @Test
    void percentagesOfAnUnboundedPool() throws IOException {
        JsonNode disruption = disruption(TestConfigs.V1, null, "node_pool_spec = { limits = null }");
        assertThat(disruption.path("node_count").asText()).isEqualTo("unknown");
        assertThat(disruption.path("nodes").isNull()).isTrue();
        assertThat(windows(disruption))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z"
                        + " {\"Drifted\":\"10%\",\"Underutilized\":\"10%\",\"Empty\":\"10%\"}");
    }

    /** 0.37's v1beta1 budgets have no reasons: each covers every reason (and expiry). */
    @Test
    void v1beta1BudgetsCoverEveryReason() throws IOException {
        JsonNode disruption = disruption(
                "0.37.8",
                "7",
                "node_pool_spec = { disruption = { budgets = [{ nodes = \"50%\" }, { nodes = \"1\", schedule ="
                        + " \"@daily\", duration = \"6h\" }] } }");
        assertThat(windows(disruption))
                .startsWith(
                        "2027-01-04T00:00:00Z..2027-01-04T06:00:00Z {\"Drifted\":1,\"Underutilized\":1,\"Empty\":1}",
                        "2027-01-04T06:00:00Z..2027-01-05T00:00:00Z {\"Drifted\":4,\"Underutilized\":4,\"Empty\":4}");
        assertThat(windows(disruption)).hasSize(14);
        assertThat(disruption.path("expiry").asText()).startsWith("budgeted like every disruption");
    }

    /** 0.33 and older have no budgets: the command says what applies; 0.32's drift gate is off by default. */
    @Test
    void noBudgetsBefore034() throws IOException {
        JsonNode disruption = disruption("0.33.12", "10");
        assertThat(disruption.path("budgets").asBoolean()).isFalse();
        assertThat(disruption.path("windows")).isEmpty();
        assertThat(disruption.path("instead").asText()).startsWith("no disruption budgets before Karpenter 0.34");
        assertThat(disruption.path("drift_rollout_minutes").asLong()).isEqualTo(100);

        Path file = dir.resolve("old.tfvars");
        Files.writeString(file, TestConfigs.tfvars("0.32.10"));
        assertThat(run("--json", file.toString())).isZero();
        assertThat(Json.mapper().readTree(console.stdout()).at("/demo/warnings").toString())
                .contains("controller_values settings.featureGates.drift is off (the chart's default at v0.32.10):"
                        + " Karpenter replaces no drifted node");
        Files.writeString(
                file,
                TestConfigs.tfvars(
                        "0.32.10", "controller_values = { settings = { featureGates = { drift = true } } }"));
        assertThat(run("--json", file.toString())).isZero();
        assertThat(Json.mapper().readTree(console.stdout()).at("/demo/warnings").toString())
                .doesNotContain("featureGates.drift");
    }

    @Test
    void textAndStrict() throws IOException {
        Path file = dir.resolve("c.tfvars");
        Files.writeString(file, TestConfigs.tfvars(TestConfigs.V1, WORKING_HOURS));
        assertThat(run("--at", "2027-01-04T10:30:00Z", "--nodes", "12", file.toString()))
                .isZero();
        assertThat(console.stdout())
                .contains("disruption, UTC, 2027-01-04T10:30Z to 2027-01-11T10:30Z, 12 nodes (--nodes)")
                .contains("2027-01-04T10:30Z .. 2027-01-04T17:00Z  3/3/3")
                .contains("drift rollout of 12 nodes, 10 minutes each: 40m");
        assertThat(run("--strict", "--at", MONDAY, file.toString())).isEqualTo(1);
        assertThat(console.stderr()).contains("preview: --strict: 2 warnings");
        assertThat(run("--at", "monday", file.toString())).isEqualTo(2);
        assertThat(console.stderr()).contains("preview: --at monday is not an instant such as 2027-01-04T00:00:00Z");
        assertThat(run("--nodes", "-1", file.toString())).isEqualTo(2);
        assertThat(run("--replace-minutes", "0", file.toString())).isEqualTo(2);
    }
}
