package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.ClusterConfig;
import org.junit.jupiter.api.Test;

class SpecSettingsTest {
    @Test
    void nodeClassSpecReachesTheNodeClass() {
        ClusterConfig c = config(V1, "node_class_spec = { kubelet = { maxPods = 110 } }");
        System.out.println(c.poolsAndClasses().nodeClasses());
        assertThat(Rendered.spec(c, "EC2NodeClass", "default")
                        .at("/kubelet/maxPods")
                        .asInt())
                .isEqualTo(110);
    }
}
