package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each add-on kind's one declaration against every supported minor's vendored files: a minor the declaration says
 * serves the kind ships its CRD at the declared version and its feature gate, off by default; any other minor ships
 * neither. And the settings catalogue documents the kind's setting.
 */
class AddOnKindsTest {
    static Stream<Arguments> kindsAndMinors() {
        return AddOnKind.values().stream()
                .flatMap(kind -> KarpenterMinor.all().stream().map(minor -> Arguments.of(kind, minor.newestRelease())));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @MethodSource("kindsAndMinors")
    void theReleaseShipsTheKindsCrdAndGateExactlyWhereTheDeclarationSaysItServesIt(
            AddOnKind kind, KarpenterRelease release) throws Exception {
        ReleaseSchemas schemas = ReleaseSchemas.of(release);
        Optional<ChartValuesSchema.Value> gate = ChartValuesSchema.of(release).values().stream()
                .filter(value -> value.path().equals(kind.gate().segments()))
                .findFirst();
        boolean served = kind.servedBy(release);

        assertThat(schemas.crds().serves(kind.type().apiVersion(), kind.type().kind()))
                .isEqualTo(served);
        assertThat(schemas.crds()
                        .serves(
                                release.apiGeneration().kinds().pool().apiVersion(),
                                release.apiGeneration().kinds().pool().kind()))
                .isTrue();
        if (served) {
            assertThat(gate).as("%s in the chart values", kind.gate()).isPresent();
            assertThat(gate.get().kind()).isEqualTo(ChartValuesSchema.Kind.BOOLEAN);
            assertThat(gate.get().chartDefault()).isEqualTo("false");
        } else {
            assertThat(gate).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void eachKindHasItsDocumentedSetting(AddOnKind kind) {
        assertThat(SettingsCatalogue.addOns(kind).key()).isEqualTo(kind.setting());
        assertThat(SettingsCatalogue.addOns(kind).description()).isNotBlank();
    }

    @Test
    void everyDeclaredConstantIsAmongTheKinds() throws IllegalAccessException {
        List<AddOnKind> constants = new ArrayList<>();
        for (Field field : AddOnKind.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == AddOnKind.class) {
                constants.add((AddOnKind) field.get(null));
            }
        }
        assertThat(AddOnKind.values()).isNotEmpty().containsExactlyInAnyOrderElementsOf(constants);
    }

    static Stream<AddOnKind> kinds() {
        return AddOnKind.values().stream();
    }
}
