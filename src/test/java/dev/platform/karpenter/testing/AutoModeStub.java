package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback HTTP proxy in front of a {@link MotoServer} that makes chosen EKS clusters run EKS Auto Mode: moto's
 * DescribeCluster ({@code GET /clusters/<name>}) never returns {@code computeConfig}, so for those clusters the
 * answer gets what an Auto Mode cluster reports (compute, block storage and load balancing enabled). Every other
 * request passes through unchanged. Point AWS clients at {@link #endpoint()} instead of moto's.
 */
public final class AutoModeStub implements AutoCloseable {
    private static final ObjectMapper JSON = Json.mapper();
    private static final Pattern DESCRIBE_CLUSTER = Pattern.compile("/clusters/([^/?]+)");
    // Request headers the JDK client sets itself (and refuses to be given).
    private static final Set<String> HOP_HEADERS =
            Set.of("host", "content-length", "connection", "expect", "upgrade", "transfer-encoding");

    private final MotoServer moto;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Set<String> autoModeClusters = ConcurrentHashMap.newKeySet();

    private AutoModeStub(MotoServer moto) throws IOException {
        this.moto = moto;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    /** A stub in front of {@code moto}, on a free loopback port. */
    public static AutoModeStub in(MotoServer moto) {
        try {
            return new AutoModeStub(moto);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on, DescribeCluster of {@code cluster} reports EKS Auto Mode (until {@link #disableAutoMode}). */
    public void enableAutoMode(String cluster) {
        autoModeClusters.add(cluster);
    }

    public void disableAutoMode(String cluster) {
        autoModeClusters.remove(cluster);
    }

    /** What points an AWS client (Terraform and its provider, over moto's environment) at this stub. */
    public Map<String, String> environment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint());
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] requestBody = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(moto.endpoint() + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(requestBody));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
                return;
            }
            byte[] body = response.body();
            Matcher describe = DESCRIBE_CLUSTER.matcher(exchange.getRequestURI().getPath());
            if (exchange.getRequestMethod().equals("GET")
                    && describe.matches()
                    && response.statusCode() == 200
                    && autoModeClusters.contains(describe.group(1))) {
                body = withAutoMode(body);
            }
            response.headers().map().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            exchange.sendResponseHeaders(response.statusCode(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** What DescribeCluster returns for a cluster with EKS Auto Mode enabled (the three capabilities it turns on). */
    private static byte[] withAutoMode(byte[] body) throws IOException {
        JsonNode root = JSON.readTree(body);
        ObjectNode cluster = (ObjectNode) root.path("cluster");
        String account = cluster.path("arn").asText().split(":")[4];
        ObjectNode compute = cluster.putObject("computeConfig");
        compute.put("enabled", true);
        compute.putArray("nodePools").add("general-purpose").add("system");
        compute.put("nodeRoleArn", "arn:aws:iam::" + account + ":role/AmazonEKSAutoNodeRole");
        cluster.putObject("storageConfig").putObject("blockStorage").put("enabled", true);
        JsonNode network = cluster.path("kubernetesNetworkConfig");
        ObjectNode networkConfig =
                network.isObject() ? (ObjectNode) network : cluster.putObject("kubernetesNetworkConfig");
        networkConfig.putObject("elasticLoadBalancing").put("enabled", true);
        return JSON.writeValueAsBytes(root);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
