package dev.platform.karpenter.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One moto server for a whole test class, started after the tool check and before the class's own @BeforeAll
 * methods, stopped after them. Register it in a static field:
 * {@code @RegisterExtension static final SharedMoto MOTO = SharedMoto.perClass();}
 */
public final class SharedMoto implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private final boolean resetBeforeEachTest;
    private MotoServer server;

    private SharedMoto(boolean resetBeforeEachTest) {
        this.resetBeforeEachTest = resetBeforeEachTest;
    }

    /** Tests share one state: a class that applies once and asserts many times. */
    public static SharedMoto perClass() {
        return new SharedMoto(false);
    }

    /** Every test starts from an empty moto (a reset is far cheaper than a new server). */
    public static SharedMoto resetBeforeEachTest() {
        return new SharedMoto(true);
    }

    public MotoServer server() {
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        IntegrationEnvironment.requireTools();
        server = MotoServer.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (resetBeforeEachTest) {
            server.reset();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
