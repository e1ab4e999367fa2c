package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.nodepools.manifest.GenerationManifests;
import dev.platform.karpenter.nodepools.manifest.KubernetesObject;
import dev.platform.karpenter.nodepools.manifest.NodePoolManifests;
import dev.platform.karpenter.release.FieldMoves.Holder;
import dev.platform.karpenter.release.FieldMoves.Move;
import dev.platform.karpenter.schema.ReleaseSchemas;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The moved-fields table against the shipped CRDs: every field a move starts from is in the last minor of the older
 * generation, every place it moves to is in the first minor of the newer one, and a removed field is gone there.
 */
class FieldMovesTest {
    @Test
    void oneChangePerGenerationAfterTheFirst() {
        assertThat(FieldMoves.all().stream().map(FieldMoves.Change::to))
                .containsExactly(ApiGeneration.V1BETA1, ApiGeneration.V1);
        for (FieldMoves.Change change : FieldMoves.all()) {
            assertThat(change.to().previous()).contains(change.from());
            assertThat(FieldMoves.into(change.to())).contains(change);
        }
        assertThat(FieldMoves.into(ApiGeneration.V1ALPHA5)).isEmpty();
    }

    @Test
    void everyMoveIsBetweenFieldsTheCrdsOfBothGenerationsHave() {
        for (FieldMoves.Change change : FieldMoves.all()) {
            ReleaseSchemas older = ReleaseSchemas.of(lastMinorOf(change.from()).newestRelease());
            ReleaseSchemas newer = ReleaseSchemas.of(firstMinorOf(change.to()).newestRelease());
            for (Move move : change.moves()) {
                assertThat(hasField(older, change.from(), move.fromHolder(), move.from()))
                        .as("%s in %s", move.from(), older)
                        .isTrue();
                assertThat(hasField(
                                newer, change.to(), move.toHolder(), move.to().orElse(move.from())))
                        .as("%s in %s", move.to(), newer)
                        .isEqualTo(move.to().isPresent());
            }
        }
    }

    @Test
    void aSpecSetsAMoveWhereItWritesItsFieldEvenAsNull() {
        FieldMoves.Change v1 = FieldMoves.into(ApiGeneration.V1).orElseThrow();
        HashMap<String, Object> disruption = new HashMap<>();
        disruption.put("expireAfter", null);
        Map<String, Object> spec =
                Map.of("disruption", disruption, "template", Map.of("spec", Map.of("kubelet", Map.of("maxPods", 20))));

        assertThat(v1.setIn(Holder.POOL, spec).stream().map(Move::from))
                .containsExactly(List.of("disruption", "expireAfter"), List.of("template", "spec", "kubelet"));
        assertThat(v1.setIn(Holder.NODE_CLASS, spec)).isEmpty();
        assertThat(v1.setIn(Holder.POOL, Map.of("template", Map.of("spec", "not a map"))))
                .isEmpty();
    }

    private static KarpenterMinor lastMinorOf(ApiGeneration generation) {
        List<KarpenterMinor> rows = minorsOf(generation);
        return rows.get(rows.size() - 1);
    }

    private static KarpenterMinor firstMinorOf(ApiGeneration generation) {
        return minorsOf(generation).get(0);
    }

    private static List<KarpenterMinor> minorsOf(ApiGeneration generation) {
        return KarpenterMinor.all().stream()
                .filter(minor -> minor.served().own() == generation)
                .toList();
    }

    private static boolean hasField(
            ReleaseSchemas schemas, ApiGeneration generation, Holder holder, List<String> path) {
        GenerationManifests manifests = NodePoolManifests.of(generation);
        KubernetesObject.Type type = holder == Holder.POOL ? manifests.poolType() : manifests.nodeClassType();
        JsonNode at = schemas.crds()
                .schema(type.apiVersion(), type.kind())
                .path("properties")
                .path("spec");
        for (String key : path) {
            at = at.path("properties").path(key);
        }
        return !at.isMissingNode();
    }
}
