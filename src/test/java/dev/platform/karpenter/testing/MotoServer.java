package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A moto server ({@code python3 -m moto.server}) on a free loopback port, emulating IAM, STS, SQS, EventBridge and EKS
 * for terraform applies, plus boto3-based helpers to inspect and seed it.
 *
 * <p>Assertions call AWS through python3/boto3 (moto's own dependency) rather than an AWS SDK, so the project needs no
 * SDK dependency just for tests.
 */
public final class MotoServer implements AutoCloseable {
    /** Region used by terraform and boto3 against this server. */
    public static final String REGION = "us-east-1";

    // Generous: on a loaded machine importing moto alone can take most of a minute.
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    // An upper bound for a hung snippet; the first one also waits for python to import boto3 and moto to load IAM.
    private static final Duration BOTO3_TIMEOUT = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = Json.mapper();
    // Any 40-hex string will do: moto stores the thumbprint without checking it.
    private static final String OIDC_THUMBPRINT = "9e99a48a9960b14926bb7f3b02e22da2b0ab7280";

    private final int port;
    private final Process process;
    private final Path log;
    private final Boto3Worker boto3;
    private final Map<String, ReattachedProvider> providers = new HashMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private MotoServer(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
        // Started now, so its python start and boto3 import overlap moto's own.
        this.boto3 = Boto3Worker.start(
                awsEnvironment(), IntegrationEnvironment.buildDir().resolve("boto3-" + port + ".log"));
    }

    /**
     * Starts moto and returns once it answers HTTP; its output goes to target/moto-PORT.log. A port another process
     * took between choosing and binding it (test JVMs run side by side) costs a retry on another.
     */
    public static MotoServer start() {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnFreePort();
            } catch (PortTaken e) {
                if (attempt == 3) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }
        }
    }

    private static MotoServer startOnFreePort() {
        int port = freeLoopbackPort();
        Path log = IntegrationEnvironment.buildDir().resolve("moto-" + port + ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String.valueOf(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("PYTHONUNBUFFERED", "1");
        // AWS managed policies (AmazonEKSWorkerNodePolicy, ...) exist only when moto is asked to load them; without
        // them attaching one to a role fails with NoSuchEntity.
        builder.environment().put("MOTO_IAM_LOAD_MANAGED_POLICIES", "true");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start moto", e);
        }
        MotoServer server;
        try {
            server = new MotoServer(port, process, log);
        } catch (RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
        try {
            server.awaitReady();
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** Base URL, e.g. {@code http://127.0.0.1:41234}; the value for AWS_ENDPOINT_URL. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /**
     * Environment that points an AWS client (terraform's provider, boto3) at this server: the endpoint, dummy
     * credentials and the region.
     */
    public Map<String, String> awsEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_ENDPOINT_URL", endpoint());
        env.put("AWS_ACCESS_KEY_ID", "testing");
        env.put("AWS_SECRET_ACCESS_KEY", "testing");
        env.put("AWS_REGION", REGION);
        env.put("AWS_DEFAULT_REGION", REGION);
        // Keeps SDKs from probing the EC2 instance metadata address, which is off loopback.
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        return env;
    }

    /** Drops all emulated state, so each test starts from an empty account. */
    public void reset() {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/moto-api/reset"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("moto reset answered " + response.statusCode());
        }
    }

    /**
     * Runs a python snippet with boto3 configured for this server and returns what it printed, as JSON. The snippet
     * sees {@code args} (the given arguments) and {@code emit(value)}, which prints {@code json.dumps(value)}; it
     * should print exactly one JSON document.
     */
    public JsonNode boto3(String pythonSnippet, String... args) {
        String printed = boto3.run(pythonSnippet, List.of(args), BOTO3_TIMEOUT);
        try {
            return JSON.readTree(printed);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "boto3 snippet printed no JSON document:\n" + pythonSnippet + "\n" + printed, e);
        }
    }

    /**
     * The hashicorp/aws provider process that Terraform commands on stack {@code stack} reattach to, pointed at this
     * server; started on first use (see {@link ReattachedProvider}).
     */
    synchronized ReattachedProvider provider(String stack, String version, Map<String, String> overrides) {
        return providers.computeIfAbsent(stack + "@" + version + new TreeMap<>(overrides), key -> {
            Map<String, String> environment = new HashMap<>(awsEnvironment());
            environment.putAll(overrides);
            return ReattachedProvider.start(
                    version,
                    environment,
                    IntegrationEnvironment.buildDir().resolve("provider-" + port + "-" + stack + ".log"));
        });
    }

    public List<String> listRoleNames() {
        return listAll("iam", "list_roles", "", "Roles", "RoleName");
    }

    /** Customer-managed policies only (scope Local); AWS-managed ones are not under test. */
    public List<String> listPolicyNames() {
        return listAll("iam", "list_policies", "Scope=\"Local\"", "Policies", "PolicyName");
    }

    public List<String> listInstanceProfileNames() {
        return listAll("iam", "list_instance_profiles", "", "InstanceProfiles", "InstanceProfileName");
    }

    public List<String> listQueueUrls() {
        return listAll("sqs", "list_queues", "", "QueueUrls", null);
    }

    /** All attributes of the queue, e.g. MessageRetentionPeriod, SqsManagedSseEnabled, Policy. */
    public Map<String, String> queueAttributes(String queueUrl) {
        JsonNode attributes = boto3("""
                sqs = boto3.client("sqs")
                emit(sqs.get_queue_attributes(QueueUrl=args[0], AttributeNames=["All"])["Attributes"])
                """, queueUrl);
        Map<String, String> result = new LinkedHashMap<>();
        attributes
                .fields()
                .forEachRemaining(e -> result.put(e.getKey(), e.getValue().asText()));
        return result;
    }

    /** Rules on the default event bus. */
    public List<String> listRuleNames() {
        return listAll("events", "list_rules", "", "Rules", "Name");
    }

    /**
     * Every item of a paginated list call, e.g. the "RoleName" of each of "Roles" from iam list_roles; {@code field}
     * null for lists of plain strings.
     */
    private List<String> listAll(String client, String operation, String arguments, String listKey, String field) {
        return Json.texts(boto3(
                """
                pages = boto3.client("%s").get_paginator("%s").paginate(%s)
                emit([item%s for page in pages for item in page.get("%s", [])])
                """.formatted(client, operation, arguments, field == null ? "" : "[\"" + field + "\"]", listKey)));
    }

    /** The rule's targets as returned by ListTargetsByRule (objects with Id, Arn, ...). */
    public JsonNode listTargetsByRule(String ruleName) {
        return boto3("""
                pages = boto3.client("events").get_paginator("list_targets_by_rule").paginate(Rule=args[0])
                emit([t for p in pages for t in p["Targets"]])
                """, ruleName);
    }

    /**
     * Seeds what the app expects to find on an existing cluster: a cluster role, the EKS cluster, an IAM OIDC provider
     * for the cluster's issuer (client id sts.amazonaws.com) and a managed node group {@code default} whose node role
     * {@code <name>-node-role} is trusted by ec2. Moto accepts fake subnet ids and reports the cluster and node group
     * ACTIVE at once.
     */
    public EksCluster createEksCluster(String name, String version) {
        return createEksCluster(name, version, "");
    }

    /** {@link #createEksCluster(String, String)} with the cluster's IP family ("ipv6"; empty: moto's default). */
    public EksCluster createEksCluster(String name, String version, String ipFamily) {
        JsonNode cluster = boto3("""
                name, version, thumbprint, ip_family = args
                iam, eks = boto3.client("iam"), boto3.client("eks")
                def trust(service):
                    return json.dumps({"Version": "2012-10-17", "Statement": [
                        {"Effect": "Allow", "Principal": {"Service": service}, "Action": "sts:AssumeRole"}]})
                cluster_role = iam.create_role(
                    RoleName=name + "-cluster-role", AssumeRolePolicyDocument=trust("eks.amazonaws.com"))["Role"]
                network = {"kubernetesNetworkConfig": {"ipFamily": ip_family}} if ip_family else {}
                eks.create_cluster(name=name, version=version, roleArn=cluster_role["Arn"],
                    resourcesVpcConfig={"subnetIds": ["subnet-0a1b2c3d", "subnet-4e5f6a7b"]}, **network)
                issuer = eks.describe_cluster(name=name)["cluster"]["identity"]["oidc"]["issuer"]
                # moto gives every cluster of an account the same issuer: a second cluster shares the provider.
                try:
                    oidc_arn = iam.create_open_id_connect_provider(
                        Url=issuer, ClientIDList=["sts.amazonaws.com"],
                        ThumbprintList=[thumbprint])["OpenIDConnectProviderArn"]
                except iam.exceptions.EntityAlreadyExistsException:
                    oidc_arn = next(p["Arn"] for p in iam.list_open_id_connect_providers()["OpenIDConnectProviderList"]
                                    if p["Arn"].endswith(issuer.split("://", 1)[1]))
                node_role = iam.create_role(
                    RoleName=name + "-node-role", AssumeRolePolicyDocument=trust("ec2.amazonaws.com"))["Role"]
                # Without version= moto gives the node group Kubernetes 1.19 whatever the cluster runs.
                eks.create_nodegroup(clusterName=name, nodegroupName="default", version=version,
                    nodeRole=node_role["Arn"], subnets=["subnet-0a1b2c3d"])
                emit({"clusterName": name, "nodeRoleArn": node_role["Arn"], "nodeRoleName": node_role["RoleName"],
                      "oidcProviderArn": oidc_arn, "issuerUrl": issuer})
                """, name, version, OIDC_THUMBPRINT, ipFamily);
        return JSON.convertValue(cluster, EksCluster.class);
    }

    /** What {@link #createEksCluster} created. */
    public record EksCluster(
            String clusterName, String nodeRoleArn, String nodeRoleName, String oidcProviderArn, String issuerUrl) {}

    /** Stops moto; its log stays in target/ for post-mortems. */
    @Override
    public void close() {
        synchronized (this) {
            providers.values().forEach(ReattachedProvider::close);
            providers.clear();
        }
        boto3.close();
        process.descendants().forEach(ProcessHandle::destroy);
        Processes.stop(process);
    }

    /**
     * Waits until this moto says it listens (werkzeug logs "Running on" once bound) and answers. Its own line, not
     * only an answer on the port: another JVM's moto that got the same port would answer too.
     */
    private void awaitReady() {
        String listening = " * Running on " + endpoint();
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String tail = Processes.tail(log);
                if (tail.contains("Address already in use")) {
                    throw new PortTaken("moto could not bind " + endpoint() + "\n" + tail);
                }
                throw new IllegalStateException("moto exited with " + process.exitValue() + "\n" + tail);
            }
            if (Processes.tail(log).contains(listening)) {
                try {
                    send(HttpRequest.newBuilder(uri("/moto-api/"))
                            .timeout(Duration.ofSeconds(5))
                            .build());
                    return;
                } catch (UncheckedIOException notYetAnswering) {
                    // Retried below.
                }
            }
            sleep(Duration.ofMillis(200));
        }
        throw new IllegalStateException(
                "moto did not answer on " + endpoint() + " within " + STARTUP_TIMEOUT + "\n" + Processes.tail(log));
    }

    private static final class PortTaken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTaken(String message) {
            super(message);
        }
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create(endpoint() + path);
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
