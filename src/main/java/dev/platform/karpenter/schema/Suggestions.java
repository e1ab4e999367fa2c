package dev.platform.karpenter.schema;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "Did you mean" for a misspelt key: the known name nearest to it, when it is near enough to be a typo. */
public final class Suggestions {
    private Suggestions() {}

    /**
     * The name in {@code known} with the fewest single-character edits from {@code typed} (ignoring case), if that is
     * at most a third of its length (at least 1, at most 3) edits away; the first such name wins a tie.
     */
    public static Optional<String> nearest(String typed, Collection<String> known) {
        LevenshteinDistance within = new LevenshteinDistance(Math.max(1, Math.min(3, typed.length() / 3)));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            int distance = within.apply(typed.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
            if (distance >= 0 && distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }
}
