package dev.platform.karpenter.release;

import java.util.ArrayList;
import java.util.List;

/**
 * The EventBridge events a Karpenter release reacts to, as listed in upstream's getting-started CloudFormation
 * template. Each becomes one rule feeding the interruption queue; a rule for an event the controller ignores would
 * only fill the queue with messages it deletes unread.
 */
public final class InterruptionEvents {
    /** Scheduled maintenance and other AWS Health events that retire instances. */
    public static final Event HEALTH = new Event("Health", "aws.health", "AWS Health Event");

    public static final Event SPOT_INTERRUPTION =
            new Event("SpotInterrupt", "aws.ec2", "EC2 Spot Instance Interruption Warning");
    public static final Event REBALANCE = new Event("Rebalance", "aws.ec2", "EC2 Instance Rebalance Recommendation");
    public static final Event STATE_CHANGE =
            new Event("StateChange", "aws.ec2", "EC2 Instance State-change Notification");
    /** Handled from Karpenter 1.10, which can launch into capacity reservations that EC2 may reclaim. */
    public static final Event CAPACITY_RESERVATION_INTERRUPTION =
            new Event("CapacityResv", "aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning");

    private InterruptionEvents() {}

    /** The events {@code release} handles, in upstream's order. */
    public static List<Event> handledBy(KarpenterRelease release) {
        List<Event> events = new ArrayList<>(List.of(HEALTH, SPOT_INTERRUPTION, REBALANCE, STATE_CHANGE));
        if (release.handlesCapacityReservationInterruptions()) {
            events.add(CAPACITY_RESERVATION_INTERRUPTION);
        }
        return List.copyOf(events);
    }

    /**
     * One event a rule matches.
     *
     * @param ruleSuffix appended to the cluster name to name the rule; short enough for the 64-character limit
     * @param source     the event's {@code source}
     * @param detailType the event's {@code detail-type}, exactly as AWS spells it
     */
    public record Event(String ruleSuffix, String source, String detailType) {}
}
