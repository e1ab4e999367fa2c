package dev.platform.karpenter.aws;

import com.hashicorp.cdktf.DefaultTokenResolver;
import com.hashicorp.cdktf.ITokenResolver;
import com.hashicorp.cdktf.ResolveOptions;
import com.hashicorp.cdktf.StringConcat;
import com.hashicorp.cdktf.TerraformStack;
import com.hashicorp.cdktf.Tokenization;
import java.util.Arrays;
import java.util.List;

/**
 * cdktf's preparing pass, narrowed to what it is for. Before synthesis, cdktf resolves every element of every stack
 * once more, only to find the references to other stacks and give each an output in that stack and remote state in
 * this one; then it resolves them all again to write them. Each stack of this app knows the references to other
 * stacks it holds (none in the IAM and interruption stacks, which are built first), and
 * {@link ClusterStack#prepareStack} (which replaces {@link TerraformStack#prepareStack}) resolves just those, as the
 * pass would. Its backend is always set (backend.StateBackends), the pass's other task.
 *
 * <p>KarpenterAppTest holds every stack to it: a reference left out would show up as one to something the stack does
 * not declare.
 */
public final class CrossStackReferences {
    private CrossStackReferences() {}

    /**
     * Of {@code candidates} (another stack's attributes this stack was given, as cdktf tokens or plain texts), those
     * that {@code written} (what this stack holds them in) holds: a stack holds only the references it writes out.
     */
    public static List<String> heldIn(List<String> candidates, String... written) {
        return candidates.stream()
                .filter(candidate ->
                        !candidate.isEmpty() && Arrays.stream(written).anyMatch(text -> text.contains(candidate)))
                .toList();
    }

    /** Resolves {@code references} in {@code stack} as cdktf's preparing pass would, in one call to the kernel. */
    public static void prepare(TerraformStack stack, List<String> references) {
        if (!references.isEmpty()) {
            Tokenization.resolve(
                    references,
                    ResolveOptions.builder()
                            .scope(stack)
                            .resolver(Resolver.INSTANCE)
                            .preparing(true)
                            .build());
        }
    }

    /** cdktf's own resolver (its _tokens.resolve), made once: it holds no state. */
    private static final class Resolver {
        static final ITokenResolver INSTANCE = new DefaultTokenResolver(new StringConcat());
    }
}
