package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.platform.karpenter.config.ResourceNames;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class InterruptionEventsTest {
    static Stream<KarpenterRelease> newestPatches() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::newestRelease);
    }

    /** The capacity reservation warnings from the row that introduces their handling on. */
    @ParameterizedTest
    @MethodSource("newestPatches")
    void capacityReservationWarningsFromTheirFeaturesRowOn(KarpenterRelease release) {
        assertThat(InterruptionEvents.handledBy(release).contains(InterruptionEvents.CAPACITY_RESERVATION_INTERRUPTION))
                .isEqualTo(release.row().ordinal()
                        >= KarpenterMinor.Feature.CAPACITY_RESERVATION_INTERRUPTIONS
                                .introducedBy()
                                .ordinal());
    }

    /** Every release handles these four; 1.10 and later also capacity reservation interruptions. */
    @ParameterizedTest(name = "{0}: capacity reservations {1}")
    @CsvSource({"v0.30.0, false", "v0.31.4, false", "1.0.0, false", "1.9.2, false", "1.10.0, true", "1.10.2, true"})
    void handlesHealthSpotRebalanceStateChangeAndFrom110CapacityReservations(String chartVersion, boolean capacity) {
        List<Tuple> expected = new ArrayList<>(List.of(
                tuple("aws.health", "AWS Health Event"),
                tuple("aws.ec2", "EC2 Spot Instance Interruption Warning"),
                tuple("aws.ec2", "EC2 Instance Rebalance Recommendation"),
                tuple("aws.ec2", "EC2 Instance State-change Notification")));
        if (capacity) {
            expected.add(tuple("aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"));
        }

        assertThat(InterruptionEvents.handledBy(KarpenterRelease.of(chartVersion)))
                .extracting(Event::source, Event::detailType)
                .containsExactlyElementsOf(expected);
    }

    @ParameterizedTest
    @MethodSource("newestPatches")
    void ruleSuffixesAreDistinctAndFitTheRuleNameBudget(KarpenterRelease release) {
        List<String> suffixes = InterruptionEvents.handledBy(release).stream()
                .map(Event::ruleSuffix)
                .toList();

        assertThat(suffixes).doesNotHaveDuplicates();
        assertThat(suffixes)
                .allSatisfy(suffix -> assertThat(suffix)
                        .matches("[A-Za-z0-9]+")
                        .hasSizeLessThanOrEqualTo(ResourceNames.EVENT_RULE_SUFFIX_MAX));
    }
}
