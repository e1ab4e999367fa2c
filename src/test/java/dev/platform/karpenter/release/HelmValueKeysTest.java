package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Value paths. Which keys each generation writes is checked against the real charts' values (ChartValueKeysTest)
 * and in the synthesized values (ControllerStackTest), not restated here.
 */
class HelmValueKeysTest {

    @Test
    void pathsUseHelmsSetSpellingWithDotsInsideAKeyEscaped() {
        assertThat(HelmValueKeys.SERVICE_ACCOUNT_ANNOTATIONS.child("eks.amazonaws.com/role-arn"))
                .hasToString("serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn");
    }
}
