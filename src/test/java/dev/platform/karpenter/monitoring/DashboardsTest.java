package dev.platform.karpenter.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.monitoring.Dashboards.Dashboard;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ReleaseMetrics;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.PromQl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dashboards of every release: each PromQL expression parses with the Prometheus project's grammar, and each
 * metric it reads is one that release exports.
 */
class DashboardsTest {

    @Test
    void everyExpressionOfEveryReleaseParsesAndReadsOnlyMetricsTheReleaseExports() {
        List<String> expressions = new ArrayList<>();
        List<KarpenterRelease> releaseOf = new ArrayList<>();
        for (KarpenterMinor minor : KarpenterMinor.all()) {
            KarpenterRelease release = minor.newestRelease();
            for (Dashboard dashboard : Dashboards.of(release)) {
                for (String expression : dashboard.expressions()) {
                    expressions.add(expression);
                    releaseOf.add(release);
                }
            }
        }

        List<PromQl.Parsed> parsed = PromQl.parse(expressions);

        assertThat(parsed).hasSize(expressions.size());
        for (int i = 0; i < parsed.size(); i++) {
            KarpenterRelease release = releaseOf.get(i);
            PromQl.Parsed one = parsed.get(i);
            assertThat(one.errors()).as(release + ": " + one.expression()).isEmpty();
            assertThat(one.metrics()).as(release + ": " + one.expression()).isNotEmpty();
            for (String metric : one.metrics()) {
                String base = metric.replaceAll("_(bucket|sum|count)$", "");
                assertThat(ReleaseMetrics.of(release).exports(base))
                        .as(release + ": " + metric + " in " + one.expression())
                        .isTrue();
            }
        }
    }

    @Test
    void theGrammarRejectsWhatPrometheusRejects() {
        List<PromQl.Parsed> parsed = PromQl.parse(List.of("sum by (le (rate(x[5m]))", "rate(x[5m]) >"));

        assertThat(parsed).allSatisfy(one -> assertThat(one.errors()).isNotEmpty());
    }

    @Test
    void dashboardsAreGrafanaJsonWithAPrometheusDataSourceVariable() {
        for (KarpenterRelease release : List.of(KarpenterRelease.of("v0.30.0"), KarpenterRelease.newest())) {
            for (Dashboard dashboard : Dashboards.of(release)) {
                JsonNode json = Json.parse(Dashboards.json(dashboard, release));
                assertThat(json.path("uid").asText()).isEqualTo(dashboard.uid());
                assertThat(json.at("/templating/list/0/type").asText()).isEqualTo("datasource");
                assertThat(json.at("/templating/list/0/query").asText()).isEqualTo("prometheus");
                assertThat(json.path("panels")).hasSize(dashboard.panels().size());
                for (JsonNode panel : json.path("panels")) {
                    assertThat(panel.at("/datasource/uid").asText()).isEqualTo("${datasource}");
                    assertThat(panel.path("targets")).isNotEmpty();
                    assertThat(panel.at("/gridPos/w").asInt()).isEqualTo(12);
                }
            }
        }
    }

    /** Where the release's page was wrong, the panels read what its code registers (metrics-code-checked.txt). */
    @Test
    void panelsReadTheNamesTheCodeRegistersWhereThePageWasWrong() {
        assertThat(Dashboards.capacity(KarpenterRelease.of("0.36.9")).expressions())
                .anySatisfy(expr ->
                        assertThat(expr).contains("karpenter_cloudprovider_instance_type_offering_price_estimate"))
                .noneSatisfy(expr -> assertThat(expr).contains("karpenter_cloudprovider_instance_type_price_estimate"));
        assertThat(Dashboards.disruption(KarpenterRelease.of("1.0.14")).expressions())
                .contains(
                        "sum(rate(karpenter_voluntary_disruption_decisions_total[5m])) * 60",
                        "max(karpenter_voluntary_disruption_eligible_nodes{reason=\"drifted\"}) or vector(0)",
                        "sum(rate(karpenter_interruption_received_messages_total[5m])) * 60");
        assertThat(Dashboards.capacity(KarpenterRelease.of("1.0.14")).expressions())
                .anySatisfy(expr -> assertThat(expr).contains("karpenter_nodepools_usage"));
    }

    @Test
    void capacityIsByPoolInEachGenerationsLabel() {
        assertThat(Dashboards.capacity(KarpenterRelease.of("v0.30.0")).expressions())
                .anySatisfy(expr -> assertThat(expr).contains("sum by (provisioner)"));
        assertThat(Dashboards.capacity(KarpenterRelease.newest()).expressions())
                .anySatisfy(expr -> assertThat(expr).contains("sum by (nodepool)"));
    }
}
