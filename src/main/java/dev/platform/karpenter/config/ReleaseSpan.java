package dev.platform.karpenter.config;

import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The Karpenter releases a setting (or one value of it) applies to, as a rule of the versions package over the
 * declared API generations. Its wording ("0.32 and later", "0.30 to 0.32 (v1alpha5 Provisioners)", "1.x") is derived
 * from the supported releases, so that messages and docs cannot say otherwise than the rule.
 *
 * @param test      whether a deploy with these declared generations accepts it
 * @param qualifier what within those releases it needs, e.g. "v1alpha5 Provisioners"; empty when nothing
 */
public record ReleaseSpan(Predicate<DeclaredApis> test, String qualifier) {
    public static final ReleaseSpan ALL = new ReleaseSpan(apis -> true, "");

    /** The releases where {@code test} holds for some deploy of them. */
    public static ReleaseSpan where(Predicate<DeclaredApis> test) {
        return new ReleaseSpan(test, "");
    }

    /** The releases where {@code test} holds for some deploy of them, needing what {@code qualifier} says. */
    public static ReleaseSpan where(Predicate<DeclaredApis> test, String qualifier) {
        return new ReleaseSpan(test, qualifier);
    }

    /** The releases that serve {@code kind}, needing the kind itself. */
    public static ReleaseSpan serving(AddOnKind kind) {
        return where(apis -> kind.servedBy(apis.release()), kind.type().kind());
    }

    public boolean contains(DeclaredApis apis) {
        return test.test(apis);
    }

    public boolean isAll() {
        return this == ALL;
    }

    /** The span in words: "0.32 and later", "0.30 to 0.32 (v1alpha5 Provisioners)", "1.x", "0.35 and later". */
    public String text() {
        List<KarpenterRelease> minors = minors();
        List<String> ranges = new ArrayList<>();
        int i = 0;
        while (i < minors.size()) {
            if (!inSpan(minors.get(i))) {
                i++;
                continue;
            }
            int first = i;
            while (i + 1 < minors.size() && inSpan(minors.get(i + 1))) {
                i++;
            }
            ranges.add(range(minors, first, i));
            i++;
        }
        String text = ranges.isEmpty() ? "no release" : String.join(", ", ranges);
        return qualifier.isEmpty() ? text : text + " (" + qualifier + ")";
    }

    private static String range(List<KarpenterRelease> minors, int first, int last) {
        KarpenterRelease from = minors.get(first);
        KarpenterRelease to = minors.get(last);
        boolean toNewest = last == minors.size() - 1;
        if (toNewest && from.minor() == 0 && from.major() > minors.get(0).major()) {
            return from.major() + ".x";
        }
        if (toNewest) {
            return series(from) + " and later";
        }
        return first == last ? series(from) : series(from) + " to " + series(to);
    }

    private boolean inSpan(KarpenterRelease minor) {
        return test.test(DeclaredApis.keeping(minor)) || test.test(DeclaredApis.retiring(minor));
    }

    private static String series(KarpenterRelease release) {
        return release.major() + "." + release.minor();
    }

    /** Every supported minor, oldest first (at its first patch). */
    private static List<KarpenterRelease> minors() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::firstRelease).toList();
    }
}
