package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The catalogue against what the code reads, terraform.tfvars.example and the README. */
class SettingsCatalogueTest {
    private static final Path EXAMPLE = Path.of("terraform.tfvars.example");

    @Test
    void theCodeReadsEveryCataloguedSettingAndNoOther() {
        Settings settings = Settings.cluster(TfvarsFile.parse(EXAMPLE));
        ClusterConfig.from(settings);

        assertThat(settings.readKeys())
                .containsExactlyInAnyOrderElementsOf(SettingsCatalogue.in(Setting.Scope.CLUSTER).stream()
                        .map(Setting::key)
                        .toList());
    }

    @Test
    void everySettingIsInTheExampleAndEveryValueShownThereIsTheDefault() throws IOException {
        String example = Files.readString(EXAMPLE);
        Map<String, Object> values = TfvarsFile.parse(EXAMPLE);
        for (Setting<?> setting : SettingsCatalogue.in(Setting.Scope.CLUSTER)) {
            assertThat(example)
                    .as(setting.key())
                    .containsPattern(Pattern.compile("(?m)^(# )?" + setting.key() + " +="));
            if (values.containsKey(setting.key()) && setting.defaultValue().isPresent()) {
                assertThat(Settings.cluster(values).get(setting))
                        .as(setting.key() + " in the example")
                        .isEqualTo(setting.defaultValue().get());
            }
        }
        assertThat(values.keySet())
                .allSatisfy(key -> assertThat(SettingsCatalogue.find(key, Setting.Scope.CLUSTER))
                        .as(key)
                        .isPresent());
    }

    @Test
    void theExampleSaysWhichSettingsAPoolEntryTakes() throws IOException {
        String example = Files.readString(EXAMPLE);
        String poolsComment =
                example.substring(example.indexOf("# More pools next to"), example.indexOf("# node_pools = ["));
        for (Setting<?> setting : SettingsCatalogue.in(Setting.Scope.CLUSTER)) {
            assertThat(poolsComment.contains(setting.key())).as(setting.key()).isEqualTo(setting.inPools());
        }
    }

    @Test
    void theReadmeNamesEverySetting() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertThat(SettingsCatalogue.all())
                .allSatisfy(
                        setting -> assertThat(readme).as(setting.key()).containsPattern("\\b" + setting.key() + "\\b"));
    }
}
