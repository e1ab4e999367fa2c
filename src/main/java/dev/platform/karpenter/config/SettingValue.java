package dev.platform.karpenter.config;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** An enum read from one string setting: each constant knows its spelling in the tfvars. */
interface SettingValue {
    /** The spelling the tfvars use. */
    String setting();

    /** The constant spelled {@code value}, else the one-line error listing the allowed spellings. */
    static <E extends Enum<E> & SettingValue> E parse(Class<E> type, String key, String value) {
        E[] constants = type.getEnumConstants();
        for (E constant : constants) {
            if (constant.setting().equals(value)) {
                return constant;
            }
        }
        List<String> allowed =
                Arrays.stream(constants).map(c -> "\"" + c.setting() + "\"").toList();
        String choice = allowed.size() == 2
                ? allowed.get(0) + " or " + allowed.get(1)
                : "one of " + allowed.stream().collect(Collectors.joining(", "));
        throw new ConfigException(key + " must be " + choice + ", got " + ConfigException.quote(value));
    }
}
