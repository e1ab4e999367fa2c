# Hand-written stand-in for terraform-aws-modules' modules/karpenter at v19.21.0, for AdoptionIT only (see
# ../README.md), together with ../common/common.tf. It creates the resources that module creates for the seed guide's
# inputs, at the same addresses and with the same AWS names; the policies are small, not Karpenter's real ones.

variable "irsa_use_name_prefix" {
  type = bool
}

variable "create_iam_role" {
  type = bool
  validation {
    condition     = !var.create_iam_role
    error_message = "This stand-in makes no node role: pass create_iam_role = false and iam_role_arn."
  }
}

variable "iam_role_arn" {
  type = string
}

locals {
  irsa_role     = "KarpenterIRSA-${var.cluster_name}"
  node_role_arn = var.iam_role_arn
  node_role     = element(split("/", var.iam_role_arn), length(split("/", var.iam_role_arn)) - 1)
  # v19.21.0 spells it so.
  spot_interruption_key = "spot_interupt"
}

resource "aws_iam_role" "irsa" {
  count              = 1
  name               = var.irsa_use_name_prefix ? null : local.irsa_role
  name_prefix        = var.irsa_use_name_prefix ? "${local.irsa_role}-" : null
  description        = "Karpenter IAM role for service account"
  assume_role_policy = data.aws_iam_policy_document.controller_assume_role.json

  force_detach_policies = true
}

resource "aws_iam_policy" "irsa" {
  count       = 1
  name_prefix = "${local.irsa_role}-"
  description = "Karpenter IAM role for service account"
  policy      = data.aws_iam_policy_document.controller.json
}

resource "aws_iam_role_policy_attachment" "irsa" {
  count      = 1
  role       = aws_iam_role.irsa[0].name
  policy_arn = aws_iam_policy.irsa[0].arn
}

# The nodes' instance profile, around the role the caller passed.
resource "aws_iam_instance_profile" "this" {
  count       = 1
  name_prefix = "Karpenter-${var.cluster_name}-"
  role        = local.node_role
}
