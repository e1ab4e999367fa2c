# Hand-written stand-in for terraform-aws-modules' modules/karpenter at v20.37.2, for AdoptionIT only (see
# ../README.md), together with ../common/common.tf. It creates the resources that module creates for IRSA with the node
# group's role (no node role, no access entry, no instance profile), at the same addresses and with the same AWS
# names; the policy is small, not Karpenter's real one.

variable "enable_irsa" {
  type = bool
  validation {
    condition     = var.enable_irsa
    error_message = "This stand-in makes the IRSA controller role only: pass enable_irsa = true."
  }
}

variable "enable_pod_identity" {
  type = bool
  validation {
    condition     = !var.enable_pod_identity
    error_message = "This stand-in has no Pod Identity: pass enable_pod_identity = false."
  }
}

# Chooses between the real module's v0.33 and v1 controller policies; the stand-in's token policy is the same for both.
variable "enable_v1_permissions" {
  type = bool
}

variable "create_node_iam_role" {
  type = bool
  validation {
    condition     = !var.create_node_iam_role
    error_message = "This stand-in makes no node role: pass create_node_iam_role = false and node_iam_role_arn."
  }
}

variable "node_iam_role_arn" {
  type = string
}

variable "create_access_entry" {
  type = bool
  validation {
    condition     = !var.create_access_entry
    error_message = "This stand-in makes no access entry: pass create_access_entry = false."
  }
}

# v20 reads the region; bin/adopt tells the versions apart by it.
data "aws_region" "current" {}

locals {
  node_role_arn = var.node_iam_role_arn
  # Spelled right since v20.
  spot_interruption_key = "spot_interrupt"
}

resource "aws_iam_role" "controller" {
  count              = 1
  name_prefix        = "KarpenterController-"
  description        = "Karpenter controller IAM role"
  assume_role_policy = data.aws_iam_policy_document.controller_assume_role.json

  force_detach_policies = true
}

resource "aws_iam_policy" "controller" {
  count       = 1
  name_prefix = "KarpenterController-"
  description = "Karpenter controller IAM policy"
  policy      = data.aws_iam_policy_document.controller.json
}

resource "aws_iam_role_policy_attachment" "controller" {
  count      = 1
  role       = aws_iam_role.controller[0].name
  policy_arn = aws_iam_policy.controller[0].arn
}
