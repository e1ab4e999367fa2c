package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes resource quantities ("940m", "1392Mi", "1000Gi", "2") as exact decimals in base units. */
public final class Quantity {
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")));
    static final BigDecimal MIB = SUFFIXES.get("Mi");
    static final BigDecimal GIB = SUFFIXES.get("Gi");

    private Quantity() {}

    /** The quantity's value in base units (cores, bytes, pods); empty text or a malformed one is refused. */
    public static BigDecimal parse(String text) {
        Matcher m = QUANTITY.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes quantity: \"" + text + "\"");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2);
        if (suffix == null) {
            return number;
        }
        if (suffix.startsWith("e") || suffix.startsWith("E") && suffix.length() > 1) {
            return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        }
        return number.multiply(SUFFIXES.get(suffix));
    }

    /** Whether {@code text} is a quantity. */
    public static boolean isQuantity(String text) {
        return QUANTITY.matcher(text.strip()).matches();
    }
}
