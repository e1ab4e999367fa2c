package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What terraform.tfvars.example sets is each shown setting's default (that it is what {@link SettingsDocs} renders,
 * word for word, docs.ReferenceDocsTest checks).
 */
class SettingsDocsTest {
    private static final Path EXAMPLE = Path.of("terraform.tfvars.example");

    @Test
    void theExampleSetsEveryShownSettingToItsDefault() {
        SettingsReader example = SettingsReader.cluster(TfvarsFile.parse(EXAMPLE));
        for (Setting<?> setting : SettingsCatalogue.in(Setting.Scope.CLUSTER)) {
            if (setting.exampleShown() && setting.defaultValue().isPresent()) {
                assertThat(example.optional(setting)).as(setting.key()).isEqualTo(setting.defaultValue());
            }
        }
    }
}
