package dev.platform.karpenter.nodepools.manifest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * SpecSettingsTest refuses each of {@link #refused()} with its message. Keys written through a spec are checked as the typed settings check the same keys, as Kubernetes and EC2 check
 * them: before, each of these synthesized and failed only on the cluster.
 */
@KernelOnlyThroughSynthesized
class ObjectKeysTest {
    private static final String NEWEST = TestConfigs.V1;
    /** The seed's generation: a Provisioner keeps labels, annotations, taints and requirements in its spec. */
    private static final String SEED_GENERATION = "v0.31.5";

    /** Keys the consumer refuses, each refused at synth naming the field (checked by SpecSettingsTest). */
    static Stream<Arguments> refused() {
        return Stream.of(
                refused(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { labels = { \"a\\nb\" = \"x\" } } } }",
                        "node_pool_spec.template.metadata.labels must hold Kubernetes label keys"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { labels = { team = \"a b\" } }",
                        "node_pool_spec.labels.team must be a Kubernetes label value"),
                refused(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { annotations = { \"bad key!\" = \"x\" } } } }",
                        "node_pool_spec.template.metadata.annotations keys must be a Kubernetes qualified name"),
                refused(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { annotations = { \"a/b/c\" = \"x\" } } } }",
                        "node_pool_spec.template.metadata.annotations keys must be a Kubernetes qualified name"),
                refused(
                        NEWEST,
                        "node_pool_spec = { template = { spec = { taints = [{ key = \"bad key\", effect = \"NoSchedule\" }] } } }",
                        // The v1 CRD has the pattern itself.
                        "node_pool_spec.template.spec.taints[0].key: \"bad key\" does not match"),
                refused(
                        NEWEST,
                        "node_pool_spec = { template = { spec = { requirements = [{ key = \"bad key\", operator = \"Exists\" }] } } }",
                        "node_pool_spec.template.spec.requirements[0].key"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { requirements = [{ key = \"bad key\", operator = \"Exists\" }] }",
                        "node_pool_spec.requirements[0].key must be a Kubernetes qualified name"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { startupTaints = [{ key = \"ok\", value = \"a b\", effect = \"NoSchedule\" }] }",
                        "node_pool_spec.startupTaints[0].value must be a Kubernetes label value"),
                refused(
                        NEWEST,
                        "node_pools = [{ name = \"gpu\", spec = { template = { metadata = { annotations = { \"x y\" = \"1\" } } } } }]",
                        "node_pools[0].spec.template.metadata.annotations keys must be a Kubernetes qualified name"),
                refused(
                        NEWEST,
                        "node_class_spec = { tags = { \"aws:foo\" = \"x\" } }",
                        "node_class_spec.tags keys must be EC2 tag keys of 1 to 128 characters, not starting with"
                                + " \"aws:\", got \"aws:foo\""),
                refused(
                        NEWEST,
                        "node_class_spec = { tags = { \"AWS:Foo\" = \"x\" } }",
                        "node_class_spec.tags keys must be EC2 tag keys"),
                refused(
                        NEWEST,
                        "node_class_spec = { tags = { " + "k".repeat(129) + " = \"x\" } }",
                        "node_class_spec.tags keys must be EC2 tag keys of 1 to 128 characters"),
                refused(
                        NEWEST,
                        "node_class_spec = { tags = { team = \"" + "v".repeat(257) + "\" } }",
                        "node_class_spec.tags.team must be an EC2 tag value of at most 256 characters"),
                refused(
                        NEWEST,
                        // a node class no pool uses is not rendered: the pool "gpu" uses it
                        "node_classes = [{ name = \"gpu\", spec = { tags = { \"aws:x\" = \"1\" } } }]\n"
                                + "node_pools = [{ name = \"gpu\", node_class = \"gpu\" }]",
                        "node_classes[0].spec.tags keys must be EC2 tag keys"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { labels = { \"a\\nb\" = \"x\" } }",
                        "node_pool_spec.labels must hold Kubernetes label keys"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { annotations = { \"bad key!\" = \"x\" } }",
                        "node_pool_spec.annotations keys must be a Kubernetes qualified name"),
                refused(
                        SEED_GENERATION,
                        "node_pool_spec = { taints = [{ key = \"bad key\", effect = \"NoSchedule\" }] }",
                        "node_pool_spec.taints[0].key must be a Kubernetes qualified name"),
                refused(
                        SEED_GENERATION,
                        "node_class_spec = { tags = { \"aws:foo\" = \"x\" } }",
                        "node_class_spec.tags keys must be EC2 tag keys"),
                refused(
                        SEED_GENERATION,
                        "node_class_spec = { tags = { \"karpenter.sh/provisioner-name\" = \"x\" } }",
                        "node_class_spec.tags keys may not be \"karpenter.sh/provisioner-name\""),
                refused(
                        SEED_GENERATION,
                        "node_class_spec = { tags = { \"kubernetes.io/cluster/demo\" = \"owned\" } }",
                        "node_class_spec.tags keys may not be keys starting with \"kubernetes.io/cluster\""));
    }

    private static Arguments refused(String release, String line, String message) {
        return Arguments.of(release, line, message);
    }

    @Test
    void annotationsOverTheApiServersTotalAreRefused() {
        String big = "x".repeat(140 * 1024);
        assertThatThrownBy(() -> SpecCheck.requireValid(TestConfigs.config(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { annotations = { \"example.com/a\" = \"" + big
                                + "\", \"example.com/b\" = \"" + big + "\" } } } }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("node_pool_spec.template.metadata.annotations holds 286746 bytes of keys and"
                        + " values; Kubernetes allows at most 262144");
    }

    @Test
    void keysAsKubernetesAndEc2TakeThemPass() {
        assertThatCode(() -> SpecCheck.requireValid(TestConfigs.config(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { labels = { \"example.com/team\" = \"a-b_c.d\" },"
                                + " annotations = { \"example.com/note\" = \"any text: $${x} \\n é\" } },"
                                + " spec = { taints = [{ key = \"example.com/gpu\", value = \"true\", effect ="
                                + " \"NoSchedule\" }] } } }",
                        "node_class_spec = { tags = { \"team name\" = \"any {text} $$${x} 日本\" } }")))
                .doesNotThrowAnyException();
    }
}
