package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.LocalExecProvisioner;
import com.hashicorp.cdktf.Op;
import com.hashicorp.cdktf.TerraformResource;
import com.hashicorp.cdktf.TerraformResourceConfig;
import com.hashicorp.cdktf.TerraformResourceLifecycle;
import dev.platform.karpenter.config.ClusterConfig;
import imports.aws.data_aws_iam_roles.DataAwsIamRoles;
import imports.aws.data_aws_iam_roles.DataAwsIamRolesConfig;
import java.util.List;
import software.constructs.Construct;

/**
 * The account's EC2 Spot service-linked role (AWSServiceRoleForEC2Spot), without which spot launches fail with
 * AuthFailure.ServiceLinkedRoleCreationNotPermitted: the controller may not create it (its policy rightly lacks
 * iam:CreateServiceLinkedRole), so it is created here when the account lacks it, as upstream's guide does once per
 * account ({@code aws iam create-service-linked-role --aws-service-name spot.amazonaws.com}).
 *
 * <p>It belongs to the account, not to this cluster: other clusters and tools launch spot with it, and deleting it
 * would break their spot launches too. So it is created and never deleted: a {@code terraform_data} resource runs
 * the AWS CLI once, when first applied, and only if a lookup finds no such role (an existing one is left as it is).
 * Two clusters of one account applied at once may both find none; the second creation then fails, and the command
 * passes when the role exists after all. What it decided is kept (its input ignores later changes), so the next plans are empty whether or not the role
 * exists by then; destroying the stack removes only that record. An {@code aws_iam_service_linked_role} would
 * instead delete the role on destroy (or fail there while instances still use it).
 */
public class SpotServiceLinkedRole extends Construct {
    /** The service the role is linked to; IAM keeps its roles under /aws-service-role/&lt;service&gt;/. */
    static final String SERVICE = "spot.amazonaws.com";

    public SpotServiceLinkedRole(Construct scope, String id, ClusterConfig config) {
        super(scope, id);
        DataAwsIamRoles existing = new DataAwsIamRoles(
                this,
                "existing",
                DataAwsIamRolesConfig.builder()
                        .pathPrefix("/aws-service-role/" + SERVICE + "/")
                        .build());
        TerraformResource once = new TerraformResource(
                this,
                "create",
                TerraformResourceConfig.builder()
                        .terraformResourceType("terraform_data")
                        .lifecycle(TerraformResourceLifecycle.builder()
                                .ignoreChanges(List.of("input"))
                                .build())
                        .provisioners(List.of(LocalExecProvisioner.builder()
                                .type("local-exec")
                                .command("${self.input ? \"" + createUnlessPresent(config.region())
                                        + "\" : \"echo The EC2 Spot service-linked role exists.\"}")
                                .build()))
                        .build());
        // true: the account had no spot role when this was first applied, so the provisioner creates it.
        // "< 1" rather than "== 0": cdktf 0.19 renders the operand 0 as "undefined".
        once.addOverride("input", Op.lt(Fn.lengthOf(existing.getNames()), 1));
    }

    /**
     * Creates the role; if that fails, succeeds when the role exists all the same: another stack of the account
     * (a second cluster deployed at the same time) may have created it since the lookup, and IAM refuses a second
     * one with EntityAlreadyExists. (No double quotes: the command sits in a Terraform string.)
     */
    static String createUnlessPresent(String region) {
        return "aws iam create-service-linked-role --aws-service-name " + SERVICE + " --region " + region
                + " || test $(aws iam list-roles --path-prefix /aws-service-role/" + SERVICE + "/"
                + " --query 'length(Roles)' --output text --region " + region + ") -gt 0";
    }
}
