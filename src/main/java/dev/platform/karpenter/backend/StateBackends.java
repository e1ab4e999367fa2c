package dev.platform.karpenter.backend;

import com.hashicorp.cdktf.LocalBackend;
import com.hashicorp.cdktf.LocalBackendConfig;
import com.hashicorp.cdktf.S3Backend;
import com.hashicorp.cdktf.S3BackendConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.config.StateBackendSettings;

/**
 * Gives each stack its own state: an S3 object per stack when state_bucket is set, else a local file in the
 * project directory addressed by a relative path (cdktf's default is absolute, which breaks on any other machine).
 */
public final class StateBackends {
    private StateBackends() {}

    /**
     * @param stateDirFromStack the project directory as seen from the stack's working directory
     *                          (cdktf.out/stacks/NAME), e.g. "../../.."
     */
    public static void configure(
            TerraformStack stack, String stackName, StateBackendSettings settings, String stateDirFromStack) {
        if (settings.isRemote()) {
            new S3Backend(
                    stack,
                    S3BackendConfig.builder()
                            .bucket(settings.bucket().orElseThrow())
                            .key(stateKey(settings, stackName))
                            .region(settings.region())
                            .encrypt(true)
                            .build());
            // S3-native locking (Terraform 1.10+); cdktf 0.19 predates the argument, so it is set as an override.
            stack.addOverride("terraform.backend.s3.use_lockfile", true);
        } else {
            new LocalBackend(
                    stack,
                    LocalBackendConfig.builder()
                            .path(localStatePath(stackName, stateDirFromStack))
                            .build());
        }
    }

    /** Where a stack's local state file is, relative to a stack's working directory. */
    public static String localStatePath(String stackName, String stateDirFromStack) {
        return stateDirFromStack + "/terraform." + stackName + ".tfstate";
    }

    public static String stateKey(StateBackendSettings settings, String stackName) {
        return settings.keyPrefix() + "/" + stackName + ".tfstate";
    }
}
