package dev.platform.karpenter.release;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Prometheus metrics one Karpenter minor exports, and the names the alerts and dashboards use for what they watch.
 *
 * <p>The facts are the minor's metrics.txt, derived from upstream's metrics reference page of its tag
 * (upstream.MetricsReference), and, where that page is wrong, the minor's metrics-code-checked.txt: the names the
 * project uses that were found registered in that tag's code, each with its source file, and ("!NAME") names the page
 * lists that the code does not register (docs/guides/alerts.md, "Metric names per release"). The page missed metrics at
 * v1.8.8 (it lists 22 of about 100) and listed renamed or stale ones at v0.36.9 and v1.0.14. A name exported is one in
 * either file and not refuted by the code check; a name not exported is not used.
 */
public final class ReleaseMetrics {
    private static final String ROOT = "/dev/platform/karpenter/release/releases/";
    public static final String FACTS = "metrics.txt";
    public static final String CODE_CHECKED = "metrics-code-checked.txt";
    /** Marks a line of {@value #CODE_CHECKED} naming a metric the page lists and the code does not register. */
    public static final String NOT_REGISTERED = "!";

    private static final Map<String, ReleaseMetrics> BY_MINOR = new ConcurrentHashMap<>();

    private final KarpenterRelease release;
    private final Set<String> documented;
    private final Set<String> codeChecked;
    private final Set<String> notRegistered;

    private ReleaseMetrics(KarpenterRelease release, Set<String> documented, String codeCheckedFacts) {
        this.release = release;
        this.documented = documented;
        this.codeChecked = names(codeCheckedFacts.lines().filter(line -> !line.startsWith(NOT_REGISTERED)));
        this.notRegistered = names(codeCheckedFacts
                .lines()
                .filter(line -> line.startsWith(NOT_REGISTERED))
                .map(line -> line.substring(NOT_REGISTERED.length())));
    }

    /** The metrics of {@code release}'s minor. */
    public static ReleaseMetrics of(KarpenterRelease release) {
        String minor = minorDir(release);
        return BY_MINOR.computeIfAbsent(
                minor,
                dir -> new ReleaseMetrics(
                        release,
                        names(read(dir, FACTS)
                                .orElseThrow(() -> new IllegalStateException(
                                        "no " + FACTS + " ships for Karpenter " + release.minorSeries()))
                                .lines()),
                        read(dir, CODE_CHECKED).orElse("")));
    }

    /** "1.8": the minor's folder under releases/. */
    public static String minorDir(KarpenterRelease release) {
        return release.major() + "." + release.minor();
    }

    /** Whether the minor's metrics reference page lists {@code name}. */
    public boolean documents(String name) {
        return documented.contains(name);
    }

    /**
     * Whether the minor exports {@code name}: its page lists it or its code was checked to register it, and the code
     * check did not find it unregistered.
     */
    public boolean exports(String name) {
        return (documented.contains(name) || codeChecked.contains(name)) && !notRegistered.contains(name);
    }

    /** The names found registered in the minor's code by the hand check (empty where none was made). */
    public Set<String> codeChecked() {
        return codeChecked;
    }

    /** The names the minor's page lists that its code, checked by hand, does not register. */
    public Set<String> notRegistered() {
        return notRegistered;
    }

    /** The names the minor's page lists. */
    public Set<String> documented() {
        return documented;
    }

    /** A gauge present whenever the controller runs: build info from 0.35, else the state of every pod it sees. */
    public String liveness() {
        return pick("karpenter_build_info", "karpenter_pods_state");
    }

    /** One series per pod with its phase and node (node "" while unbound). */
    public String podState() {
        return pick("karpenter_pods_state");
    }

    /** Counter of node claims (machines before 0.32) created. */
    public String claimsCreated() {
        return pick("karpenter_nodeclaims_created_total", "karpenter_nodeclaims_created", "karpenter_machines_created");
    }

    /** Counter of nodes created, which Karpenter counts once a claim's node registers. */
    public String nodesCreated() {
        return pick("karpenter_nodes_created_total", "karpenter_nodes_created");
    }

    /** Gauge of what a pool (provisioner before 0.32) has launched, by resource_type. */
    public String poolUsage() {
        return pick("karpenter_nodepools_usage", "karpenter_nodepool_usage", "karpenter_provisioner_usage");
    }

    /** Gauge of a pool's (provisioner's) limits, by resource_type. */
    public String poolLimit() {
        return pick("karpenter_nodepools_limit", "karpenter_nodepool_limit", "karpenter_provisioner_limit");
    }

    /** The label naming the pool on {@link #poolUsage()} and {@link #poolLimit()}. */
    public String poolLabel() {
        return poolUsage().equals("karpenter_provisioner_usage") ? "provisioner" : "nodepool";
    }

    /** Counter of errors returned by the cloud provider, by method and error. */
    public String cloudProviderErrors() {
        return pick("karpenter_cloudprovider_errors_total");
    }

    /** Histogram of how long an interruption message waited in the queue before the controller acted on it. */
    public String interruptionMessageAge() {
        return pick(
                "karpenter_interruption_message_queue_duration_seconds",
                "karpenter_interruption_message_latency_time_seconds");
    }

    /** Counter of interruption messages received, by message_type. */
    public String interruptionMessagesReceived() {
        return pick("karpenter_interruption_received_messages_total", "karpenter_interruption_received_messages");
    }

    /** Gauge of nodes a disruption method may disrupt; {@link #driftSelector()} picks drift's. */
    public String disruptionEligible() {
        return pick(
                "karpenter_voluntary_disruption_eligible_nodes",
                "karpenter_disruption_eligible_nodes",
                "karpenter_deprovisioning_eligible_machines");
    }

    /**
     * The label matcher for drift on {@link #disruptionEligible()}: {@code deprovisioner="drift"} to 0.31 (on
     * karpenter_deprovisioning_eligible_machines), {@code method="drift"} from 0.32 to 0.37 (on
     * karpenter_disruption_eligible_nodes; metrics.DriftReason), {@code reason="drifted"} from 1.0 (on
     * karpenter_voluntary_disruption_eligible_nodes; the lower-cased DisruptionReasonDrifted).
     */
    public String driftSelector() {
        if (disruptionEligible().equals("karpenter_deprovisioning_eligible_machines")) {
            return "deprovisioner=\"drift\"";
        }
        return release.isV1() ? "reason=\"drifted\"" : "method=\"drift\"";
    }

    /**
     * The {@code error} label value of {@link #cloudProviderErrors()} for a Delete or Get of an instance that is gone,
     * which every normal termination ends with: MachineNotFoundError at 0.30, NodeClaimNotFoundError from 0.31.
     */
    public String notFoundError() {
        return release.major() == 0 && release.minor() == 30 ? "MachineNotFoundError" : "NodeClaimNotFoundError";
    }

    /** Gauge of each node's allocatable resources, by nodepool (provisioner), instance type and capacity type. */
    public String nodesAllocatable() {
        return pick("karpenter_nodes_allocatable");
    }

    /** The label naming the pool on {@link #nodesAllocatable()} and {@link #podState()}. */
    public String nodeOwnerLabel() {
        return release.apiGeneration() == ApiGeneration.V1ALPHA5 ? "provisioner" : "nodepool";
    }

    /** Gauge of the estimated hourly price of each instance type offering. */
    public String offeringPrice() {
        return pick(
                "karpenter_cloudprovider_instance_type_offering_price_estimate",
                "karpenter_cloudprovider_instance_type_price_estimate");
    }

    /** Counter of voluntary disruption decisions (disruption actions before 1.0), when the release has one. */
    public Optional<String> disruptionDecisions() {
        return first(
                "karpenter_voluntary_disruption_decisions_total",
                "karpenter_disruption_actions_performed_total",
                "karpenter_deprovisioning_actions_performed");
    }

    /** The first of {@code names} this minor exports. */
    public Optional<String> first(String... names) {
        for (String name : names) {
            if (exports(name)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    private String pick(String... names) {
        return first(names)
                .orElseThrow(() -> new IllegalStateException(
                        "Karpenter " + release.minorSeries() + " exports none of " + String.join(", ", names)));
    }

    private static Optional<String> read(String minor, String file) {
        try (InputStream in = ReleaseMetrics.class.getResourceAsStream(ROOT + minor + "/" + file)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> names(Stream<String> facts) {
        return facts.filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split(" ", 2)[0])
                .collect(Collectors.toUnmodifiableSet());
    }
}
