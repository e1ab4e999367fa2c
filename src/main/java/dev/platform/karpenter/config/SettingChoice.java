package dev.platform.karpenter.config;

import java.util.Arrays;
import java.util.List;

/** An enum read from one string setting: each constant knows its spelling in the tfvars, and its releases. */
interface SettingChoice {
    /** The spelling the tfvars use. */
    String setting();

    /** The Karpenter releases that accept this value. */
    default ReleaseSpan releases() {
        return ReleaseSpan.ALL;
    }

    /** The constant spelled {@code value}, else the one-line error listing the allowed spellings. */
    static <E extends Enum<E> & SettingChoice> E parse(Class<E> type, String key, String value) {
        E[] constants = type.getEnumConstants();
        for (E constant : constants) {
            if (constant.setting().equals(value)) {
                return constant;
            }
        }
        List<String> allowed =
                Arrays.stream(constants).map(SettingChoice::setting).toList();
        throw new ConfigException(
                key + " must be " + ConfigException.quoteAll(allowed) + ", got " + ConfigException.quote(value));
    }
}
