package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Mirror;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The budget facts the timeline rests on, against upstream's NodePool CRD at every tag of the mirror, in the API
 * generation the project applies at that release: budgets exist from 0.34 on; where a pool writes none the API server
 * gives one of 10%; v1 budgets name reasons among exactly Drifted, Underutilized and Empty, v1beta1 ones none; the
 * schedule's pattern admits the descriptors the cron reader knows, and the durations the duration reader reads.
 */
@NeedsUpstreamMirror
class DisruptionBudgetsUpstreamTest {
    @Test
    void budgetsAsEachTagsCrdDeclaresThem() throws IOException {
        Path mirror = Mirror.require().root();
        List<String> tags;
        try (Stream<Path> entries = Files.list(mirror)) {
            tags = entries.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("v\\d+\\.\\d+\\.\\d+"))
                    .sorted()
                    .toList();
        }
        assertThat(tags).isNotEmpty();
        List<String> checked = new ArrayList<>();
        for (String tag : tags) {
            Path crd = mirror.resolve(tag).resolve("pkg/apis/crds/karpenter.sh_nodepools.yaml");
            KarpenterRelease release = KarpenterRelease.of(tag.substring(1));
            if (release.apiGeneration() == ApiGeneration.V1ALPHA5) {
                continue; // Provisioners: no budgets; the NodePool CRD beside them is not applied
            }
            String version = release.apiGeneration().name().toLowerCase(Locale.ROOT);
            JsonNode schema = null;
            for (JsonNode served : Json.readYaml(crd).path("spec").path("versions")) {
                if (served.path("name").asText().equals(version)) {
                    schema = served.at("/schema/openAPIV3Schema/properties/spec/properties/disruption/properties");
                }
            }
            assertThat(schema).as(tag).isNotNull();
            JsonNode budgets = schema.path("budgets");
            boolean present = release.has(KarpenterMinor.Feature.DISRUPTION_BUDGETS);
            assertThat(!budgets.isMissingNode()).as(tag + " has budgets").isEqualTo(present);
            if (!present) {
                checked.add(tag + ": none");
                continue;
            }
            assertThat(budgets.at("/default/0/nodes").asText()).as(tag).isEqualTo(DisruptionBudgets.DEFAULT_NODES);
            JsonNode properties = budgets.at("/items/properties");
            List<String> reasons = new ArrayList<>();
            properties.at("/reasons/items/enum").forEach(reason -> reasons.add(reason.asText()));
            if (release.isV1()) {
                assertThat(reasons).as(tag).containsExactlyInAnyOrderElementsOf(DisruptionBudgets.REASONS);
            } else {
                assertThat(properties.path("reasons").isMissingNode()).as(tag).isTrue();
            }
            String schedule = properties.at("/schedule/pattern").asText();
            for (String descriptor :
                    List.of("annually", "yearly", "monthly", "weekly", "daily", "midnight", "hourly")) {
                assertThat(schedule).as(tag).contains(descriptor);
            }
            String duration = properties.at("/duration/pattern").asText();
            for (String written : List.of("10m", "8h", "1h30m", "24h0m0s")) {
                assertThat(written).as(tag + " " + duration).matches(duration);
                assertThat(DisruptionBudgets.parseDuration(written)).isPositive();
            }
            checked.add(tag + ": " + reasons);
        }
        assertThat(checked).anyMatch(line -> line.endsWith("none")).anyMatch(line -> line.contains("Drifted"));
    }
}
