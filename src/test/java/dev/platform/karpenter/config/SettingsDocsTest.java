package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * terraform.tfvars.example and the README's settings tables are what {@link SettingsDocs} renders from the catalogue,
 * word for word: a description changed in the catalogue alone fails here. {@code mvn -o test -Dtest=SettingsDocsTest
 * -Dsettings.docs=write} rewrites both files instead.
 */
class SettingsDocsTest {
    private static final Path EXAMPLE = Path.of("terraform.tfvars.example");
    private static final Path README = Path.of("README.md");
    private static final boolean WRITE = "write".equals(System.getProperty("settings.docs"));

    @Test
    void theExampleIsTheCatalogue() throws IOException {
        String expected = SettingsDocs.example();
        if (WRITE) {
            Files.writeString(EXAMPLE, expected);
        }
        assertThat(Files.readString(EXAMPLE))
                .as("terraform.tfvars.example; run SettingsDocsTest with -Dsettings.docs=write")
                .isEqualTo(expected);
    }

    @Test
    void theReadmeSettingsTablesAreTheCatalogue() throws IOException {
        String readme = Files.readString(README);
        int begin = readme.indexOf(SettingsDocs.README_BEGIN);
        int end = readme.indexOf(SettingsDocs.README_END);
        assertThat(begin).as("README.md holds " + SettingsDocs.README_BEGIN).isNotNegative();
        assertThat(end).as("README.md holds " + SettingsDocs.README_END).isGreaterThan(begin);
        String current = readme.substring(begin, end + SettingsDocs.README_END.length());
        String expected = SettingsDocs.readme();
        if (WRITE) {
            Files.writeString(README, readme.replace(current, expected));
            current = expected;
        }
        assertThat(current)
                .as("README.md settings tables; run SettingsDocsTest with -Dsettings.docs=write")
                .isEqualTo(expected);
    }

    @Test
    void theExampleSetsEveryShownSettingToItsDefault() {
        Settings example = Settings.cluster(TfvarsFile.parse(EXAMPLE));
        for (Setting<?> setting : SettingsCatalogue.in(Setting.Scope.CLUSTER)) {
            if (setting.exampleShown() && setting.defaultValue().isPresent()) {
                assertThat(example.optional(setting)).as(setting.key()).isEqualTo(setting.defaultValue());
            }
        }
    }
}
