package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.platform.karpenter.config.ResourceNames;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InterruptionEventsTest {

    @ParameterizedTest
    @ValueSource(strings = {"v0.30.0", "v0.31.4", "1.0.0", "1.9.3"})
    void releasesBefore110HandleHealthSpotRebalanceAndStateChange(String chartVersion) {
        assertThat(InterruptionEvents.handledBy(KarpenterRelease.of(chartVersion)))
                .extracting(Event::source, Event::detailType)
                .containsExactly(
                        tuple("aws.health", "AWS Health Event"),
                        tuple("aws.ec2", "EC2 Spot Instance Interruption Warning"),
                        tuple("aws.ec2", "EC2 Instance Rebalance Recommendation"),
                        tuple("aws.ec2", "EC2 Instance State-change Notification"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.10.0", "1.14.1"})
    void releasesFrom110AlsoHandleCapacityReservationInterruptions(String chartVersion) {
        assertThat(InterruptionEvents.handledBy(KarpenterRelease.of(chartVersion)))
                .extracting(Event::source, Event::detailType)
                .containsExactly(
                        tuple("aws.health", "AWS Health Event"),
                        tuple("aws.ec2", "EC2 Spot Instance Interruption Warning"),
                        tuple("aws.ec2", "EC2 Instance Rebalance Recommendation"),
                        tuple("aws.ec2", "EC2 Instance State-change Notification"),
                        tuple("aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"v0.30.0", "1.14.1"})
    void ruleSuffixesAreDistinctAndFitTheRuleNameBudget(String chartVersion) {
        List<String> suffixes = InterruptionEvents.handledBy(KarpenterRelease.of(chartVersion)).stream()
                .map(Event::ruleSuffix)
                .toList();

        assertThat(suffixes).doesNotHaveDuplicates();
        assertThat(suffixes).allSatisfy(suffix -> assertThat(suffix)
                .matches("[A-Za-z0-9]+")
                .hasSizeLessThanOrEqualTo(ResourceNames.EVENT_RULE_SUFFIX_MAX));
    }
}
