package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CEL environment of x-kubernetes-validations, and the shim of the Kubernetes regex library. */
class KubernetesCelTest {

    @Test
    void findReturnsTheFirstMatchOrEmpty() throws Exception {
        assertThat(KubernetesCel.evaluate("self.find('^([^/]+)')", "karpenter.sh/nodepool"))
                .isEqualTo("karpenter.sh");
        assertThat(KubernetesCel.evaluate("self.find('[0-9]+')", "abc")).isEqualTo("");
        assertThat(KubernetesCel.evaluate("self.find('^[^@]+')", "bottlerocket@latest"))
                .isEqualTo("bottlerocket");
    }

    @Test
    void findAllReturnsEveryMatchUpToALimit() throws Exception {
        assertThat(KubernetesCel.evaluate("self.findAll('[0-9]+')", "a1b22c333"))
                .isEqualTo(List.of("1", "22", "333"));
        assertThat(KubernetesCel.evaluate("self.findAll('[0-9]+', 2)", "a1b22c333"))
                .isEqualTo(List.of("1", "22"));
        assertThat(KubernetesCel.evaluate("self.findAll('x')", "abc")).isEqualTo(List.of());
    }

    @Test
    void karpentersRestrictedLabelRuleAcceptsWellKnownKeysAndRejectsItsOwnDomain() throws Exception {
        String rule = "self in [\"karpenter.sh/capacity-type\", \"karpenter.sh/nodepool\"] "
                + "|| !self.find(\"^([^/]+)\").endsWith(\"karpenter.sh\")";
        assertThat(KubernetesCel.evaluate(rule, "karpenter.sh/capacity-type")).isEqualTo(true);
        assertThat(KubernetesCel.evaluate(rule, "example.com/team")).isEqualTo(true);
        assertThat(KubernetesCel.evaluate(rule, "karpenter.sh/custom")).isEqualTo(false);
        assertThat(KubernetesCel.evaluate(rule, "sub.karpenter.sh/custom")).isEqualTo(false);
    }

    @Test
    void objectsAreMapsListsHaveMacrosAndStringsHaveTheStringsExtension() throws Exception {
        Map<String, Object> nodeClass =
                Map.of("role", "r", "amiSelectorTerms", List.of(Map.of("alias", "al2023@latest")));
        assertThat(KubernetesCel.evaluate(
                        "(has(self.role) && !has(self.instanceProfile)) || (!has(self.role) && has(self.instanceProfile))",
                        nodeClass))
                .isEqualTo(true);
        assertThat(KubernetesCel.evaluate(
                        "self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.split('@')[0] == 'al2023')",
                        nodeClass))
                .isEqualTo(true);
        assertThat(KubernetesCel.evaluate(
                        "self.all(x, (x.operator == 'Gt') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
                        List.of(Map.of("operator", "Gt", "values", List.of("2")))))
                .isEqualTo(true);
        assertThat(KubernetesCel.evaluate("self.size() <= 1 && self.filter(x, x > 1).size() == 1", List.of(2L)))
                .isEqualTo(true);
    }

    @Test
    void aRuleThatDoesNotCompileIsReportedWithItsText() {
        assertThatThrownBy(() -> KubernetesCel.evaluate("self.noSuchFunction()", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("self.noSuchFunction()");
    }
}
