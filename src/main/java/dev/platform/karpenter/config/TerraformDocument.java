package dev.platform.karpenter.config;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A document (YAML or JSON text) bound for one Terraform string that mixes user text with the project's own
 * references (a role ARN, a queue name read from another stack). Its writer places {@link #reference stand-ins}
 * where the references go; {@link #toTerraform} then escapes the whole text with {@link TerraformStrings#literal}
 * and puts each reference in place of its stand-in. So every character of the document is escaped except the
 * references the project named here, whatever a user's text holds: a forgotten reference shows up escaped (a test
 * sees it), never a user's text evaluated.
 *
 * <p>A stand-in is {@code ${} and a random name: a writer quotes it as it would quote the reference (both hold
 * braces), and no text holds it by chance.
 */
public final class TerraformDocument {
    // Against collisions with text, not against an adversary: the configuration's author is the user.
    private final String name = "karpenterRef"
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong())
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    /** How a cdktf string token starts; config stays free of cdktf itself. */
    private static final String CDKTF_TOKEN = "${TfToken[";

    private final List<String> references = new ArrayList<>();

    /** The stand-in to write where {@code reference} (a Terraform reference the project made) goes. */
    public String reference(String reference) {
        references.add(reference);
        return standIn(references.size() - 1);
    }

    /**
     * A value the project computed: a {@link #reference} where it holds a cdktf token (another resource's
     * attribute), else the value itself, plain text like any other.
     */
    public String referenceOrText(String value) {
        return value.contains(CDKTF_TOKEN) ? reference(value) : value;
    }

    /** The written text as a Terraform string: all of it literal but the references. */
    public String toTerraform(String written) {
        String text = TerraformStrings.literal(written);
        for (int i = 0; i < references.size(); i++) {
            // In braces of its own: cdktf takes a "${" before a token as the start of an expression the token is
            // inside (and leaves the token's braces out), and a user's escaped "$${" is such a start to it.
            text = text.replace("$" + standIn(i), "${" + references.get(i) + "}");
        }
        return text;
    }

    private String standIn(int index) {
        return "${" + name + "n" + index + "}";
    }
}
