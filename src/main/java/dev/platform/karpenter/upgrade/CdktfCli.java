package dev.platform.karpenter.upgrade;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The cdktf CLI as the commands this project prints name it: bin/cdktf, which runs the CLI pinned in bindings/ (the
 * same version as the cdktf library, pom.xml's cdktf.version, written into pinned.properties by the build).
 */
final class CdktfCli {
    private static final String PINNED_RESOURCE = "/dev/platform/karpenter/synth/pinned.properties";

    private CdktfCli() {}

    /** A command line: "bin/cdktf deploy '*'". */
    static String command(String arguments) {
        return "bin/cdktf " + arguments;
    }

    /** The pinned CLI version, from the build. */
    static String version() {
        try (InputStream in = CdktfCli.class.getResourceAsStream(PINNED_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the app is built without " + PINNED_RESOURCE);
            }
            Properties pinned = new Properties();
            pinned.load(in);
            return pinned.getProperty("cdktf.version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
