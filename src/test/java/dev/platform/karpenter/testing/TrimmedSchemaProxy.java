package dev.platform.karpenter.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.WireFormat;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.HandlerRegistry;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A gRPC proxy between Terraform and one reattached provider process that passes every call through unchanged except
 * the schema request, which it answers with only the resource, data source and ephemeral resource types the stack
 * uses ({@link #serve}); the provider block, functions and capabilities stay whole.
 *
 * <p>Why: Terraform decodes the whole provider schema on every command. hashicorp/aws 5.100.0 declares 2,141 types
 * (4.9 MB), a stack here uses about 15, and decoding the rest costs Terraform about 1.8 s of CPU per command, most of
 * what an integration test's plan or apply costs. The types a stack uses keep their schemas byte for byte, so
 * Terraform validates, plans and applies them exactly as against the whole schema; a type left out fails the command
 * loudly ("invalid resource type"), never silently. The provider computes its schema once: later requests are
 * answered from its first answer, which the provider never changes while it runs.
 */
final class TrimmedSchemaProxy implements AutoCloseable {
    /** The schema request of plugin protocol 5 and of 6; both answer a GetProviderSchema.Response. */
    private static final Set<String> SCHEMA_METHODS =
            Set.of("tfplugin5.Provider/GetSchema", "tfplugin6.Provider/GetProviderSchema");
    /** GetProviderSchema.Response's fields that map a type name to its schema, and which of the types each offers. */
    private static final Map<Integer, Function<Types, Set<String>>> TYPE_MAPS =
            Map.of(2, Types::resources, 3, Types::dataSources, 8, Types::ephemeralResources);
    /** The AWS schema alone is 4.9 MB, above gRPC's default limit of 4 MB; Terraform accepts up to 256 MB. */
    private static final int MAX_MESSAGE = 256 << 20;
    /**
     * gRPC sets SO_KEEPALIVE on every channel and Netty warns that a Unix socket has no such option (through the
     * logger of the bootstrap subclass, so the package's logger is the one to quiet).
     */
    private static final Logger NETTY_BOOTSTRAP = Logger.getLogger("io.grpc.netty.shaded.io.netty.bootstrap");

    static {
        NETTY_BOOTSTRAP.setLevel(Level.SEVERE);
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private final ManagedChannel provider;
    private final Server server;
    private final Map<Types, byte[]> trimmed = new ConcurrentHashMap<>();
    private volatile Types types;
    private volatile byte[] schema;

    private TrimmedSchemaProxy(ManagedChannel provider) throws IOException {
        this.provider = provider;
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .maxInboundMessageSize(MAX_MESSAGE)
                .fallbackHandlerRegistry(new HandlerRegistry() {
                    @Override
                    public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
                        MethodDescriptor<byte[], byte[]> descriptor = MethodDescriptor.newBuilder(BYTES, BYTES)
                                .setFullMethodName(method)
                                .setType(MethodDescriptor.MethodType.UNKNOWN)
                                .build();
                        return ServerMethodDefinition.create(
                                descriptor,
                                (call, headers) -> SCHEMA_METHODS.contains(method)
                                        ? schema(descriptor, call, headers)
                                        : forward(descriptor, call, headers));
                    }
                })
                .build()
                .start();
    }

    /**
     * Whether this machine can reach a provider's Unix socket: Netty's native epoll transport, which grpc-netty-shaded
     * carries for Linux only. Elsewhere (macOS) Terraform reattaches to the provider directly, with the whole schema.
     */
    static boolean isAvailable() {
        return Epoll.isAvailable();
    }

    /** Starts a proxy on a free loopback port for the provider listening on Unix socket {@code providerSocket}. */
    static TrimmedSchemaProxy start(String providerSocket) {
        ManagedChannel channel = Grpc.newChannelBuilder("unix://" + providerSocket, InsecureChannelCredentials.create())
                .maxInboundMessageSize(MAX_MESSAGE)
                .build();
        try {
            return new TrimmedSchemaProxy(channel);
        } catch (IOException e) {
            channel.shutdownNow();
            throw new UncheckedIOException("cannot start the schema proxy", e);
        }
    }

    /** Where Terraform reaches the proxy: a TF_REATTACH_PROVIDERS address of network "tcp". */
    String address() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
    }

    /** The types a schema offers: those a stack's configuration declares and its state holds, by kind. */
    record Types(Set<String> resources, Set<String> dataSources, Set<String> ephemeralResources) {
        Types {
            resources = Set.copyOf(resources);
            dataSources = Set.copyOf(dataSources);
            ephemeralResources = Set.copyOf(ephemeralResources);
        }
    }

    /** The types the schema offers from the next command on. */
    void serve(Types types) {
        this.types = types;
    }

    @Override
    public void close() {
        server.shutdownNow();
        provider.shutdownNow();
    }

    /** The first schema request goes to the provider; every later one is answered from its answer. */
    private ServerCall.Listener<byte[]> schema(
            MethodDescriptor<byte[], byte[]> method, ServerCall<byte[], byte[]> call, Metadata headers) {
        if (schema == null) {
            return forward(method, call, headers);
        }
        call.request(1);
        return new ServerCall.Listener<>() {
            @Override
            public void onHalfClose() {
                call.sendHeaders(new Metadata());
                call.sendMessage(trim(schema));
                call.close(Status.OK, new Metadata());
            }
        };
    }

    /** Passes one call of any kind (unary or streaming) through, message by message in both directions. */
    private ServerCall.Listener<byte[]> forward(
            MethodDescriptor<byte[], byte[]> method, ServerCall<byte[], byte[]> call, Metadata headers) {
        boolean isSchema = SCHEMA_METHODS.contains(method.getFullMethodName());
        ClientCall<byte[], byte[]> upstream = provider.newCall(method, CallOptions.DEFAULT);
        upstream.start(
                new ClientCall.Listener<>() {
                    @Override
                    public void onHeaders(Metadata answerHeaders) {
                        call.sendHeaders(answerHeaders);
                    }

                    @Override
                    public void onMessage(byte[] message) {
                        if (isSchema) {
                            schema = message;
                        }
                        call.sendMessage(isSchema ? trim(message) : message);
                        upstream.request(1);
                    }

                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        call.close(status, trailers);
                    }
                },
                headers);
        upstream.request(1);
        call.request(1);
        // request(int) is the one call method that may be used from any thread: here, the server side's.
        return new ServerCall.Listener<>() {
            @Override
            public void onMessage(byte[] message) {
                upstream.sendMessage(message);
                call.request(1);
            }

            @Override
            public void onHalfClose() {
                upstream.halfClose();
            }

            @Override
            public void onCancel() {
                upstream.cancel("Terraform cancelled the call", null);
            }
        };
    }

    /** The schema answer with only the types of {@link #types} in its type maps (all of it before any is set). */
    private byte[] trim(byte[] answer) {
        Types offered = types;
        if (offered == null) {
            return answer;
        }
        return trimmed.computeIfAbsent(offered, keep -> {
            try {
                UnknownFieldSet.Builder kept = UnknownFieldSet.newBuilder();
                UnknownFieldSet.parseFrom(answer).asMap().forEach((number, field) -> {
                    if (!TYPE_MAPS.containsKey(number)) {
                        kept.addField(number, field);
                        return;
                    }
                    Set<String> names = TYPE_MAPS.get(number).apply(keep);
                    UnknownFieldSet.Field.Builder entries = UnknownFieldSet.Field.newBuilder();
                    for (ByteString entry : field.getLengthDelimitedList()) {
                        if (names.contains(key(entry))) {
                            entries.addLengthDelimited(entry);
                        }
                    }
                    kept.addField(number, entries.build());
                });
                return kept.build().toByteArray();
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("the provider's schema answer is not a protobuf message", e);
            }
        });
    }

    /** A map entry's key: its field 1, a string. */
    private static String key(ByteString entry) {
        try {
            CodedInputStream input = entry.newCodedInput();
            for (int tag = input.readTag(); tag != 0; tag = input.readTag()) {
                if (WireFormat.getTagFieldNumber(tag) == 1
                        && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                    return input.readString();
                }
                input.skipField(tag);
            }
            return "";
        } catch (IOException e) {
            throw new IllegalStateException("a schema map entry is not a protobuf message", e);
        }
    }
}
