package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.Json;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CdktfCliTest {
    @Test
    void thePinnedVersionIsTheBuildsAndTheCliBinCdktfRuns() throws IOException {
        var dependencies = Json.mapper()
                .readTree(Path.of("bindings/package.json").toFile())
                .path("dependencies");

        assertThat(CdktfCli.version())
                .matches("\\d+\\.\\d+\\.\\d+")
                .isEqualTo(dependencies.path("cdktf-cli").asText())
                .isEqualTo(dependencies.path("cdktf").asText());
        assertThat(CdktfCli.command("deploy '*'")).isEqualTo("bin/cdktf deploy '*'");
    }
}
