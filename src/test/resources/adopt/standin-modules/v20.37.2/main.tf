# Hand-written stand-in for terraform-aws-modules' modules/karpenter at v20.37.2, for AdoptionIT only (see
# ../README.md). It creates the resources that module creates for IRSA with the node group's role (no node role, no
# access entry, no instance profile), at the same addresses and with the same AWS names; the policy is small, not
# Karpenter's real one.

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "cluster_name" {
  type = string
}

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

variable "irsa_oidc_provider_arn" {
  type = string
}

variable "irsa_namespace_service_accounts" {
  type = list(string)
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

data "aws_region" "current" {}

data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

locals {
  oidc_issuer = element(split(":oidc-provider/", var.irsa_oidc_provider_arn), 1)
  queue       = "Karpenter-${var.cluster_name}"

  # Keys and rule name prefixes as v20.37.2 has them (spot_interrupt spelled right since v20).
  rules = {
    health_event          = { prefix = "KarpenterHealthEvent-", source = "aws.health", type = "AWS Health Event", about = "AWS health event" }
    spot_interrupt        = { prefix = "KarpenterSpotInterrupt-", source = "aws.ec2", type = "EC2 Spot Instance Interruption Warning", about = "EC2 spot instance interruption warning" }
    instance_rebalance    = { prefix = "KarpenterInstanceRebalance-", source = "aws.ec2", type = "EC2 Instance Rebalance Recommendation", about = "EC2 instance rebalance recommendation" }
    instance_state_change = { prefix = "KarpenterInstanceStateChange-", source = "aws.ec2", type = "EC2 Instance State-change Notification", about = "EC2 instance state-change notification" }
  }
}

# The controller's role, assumed through the cluster's OIDC provider.
data "aws_iam_policy_document" "controller_assume_role" {
  count = 1
  statement {
    actions = ["sts:AssumeRoleWithWebIdentity"]
    principals {
      type        = "Federated"
      identifiers = [var.irsa_oidc_provider_arn]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.oidc_issuer}:sub"
      values   = [for sa in var.irsa_namespace_service_accounts : "system:serviceaccount:${sa}"]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.oidc_issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "controller" {
  count              = 1
  name_prefix        = "KarpenterController-"
  description        = "Karpenter controller IAM role"
  assume_role_policy = data.aws_iam_policy_document.controller_assume_role[0].json

  force_detach_policies = true
}

# A token controller policy: the queue's messages and passing the node role.
data "aws_iam_policy_document" "controller" {
  count = 1
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueUrl"]
    resources = [aws_sqs_queue.this[0].arn]
  }
  statement {
    actions   = ["iam:PassRole"]
    resources = [var.node_iam_role_arn]
  }
}

resource "aws_iam_policy" "controller" {
  count       = 1
  name_prefix = "KarpenterController-"
  description = "Karpenter controller IAM policy"
  policy      = data.aws_iam_policy_document.controller[0].json
}

resource "aws_iam_role_policy_attachment" "controller" {
  count      = 1
  role       = aws_iam_role.controller[0].name
  policy_arn = aws_iam_policy.controller[0].arn
}

# The interruption queue and the rules that feed it.
resource "aws_sqs_queue" "this" {
  count                     = 1
  name                      = local.queue
  message_retention_seconds = 300
  sqs_managed_sse_enabled   = true
}

data "aws_iam_policy_document" "queue" {
  count = 1
  statement {
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.this[0].arn]
    principals {
      type        = "Service"
      identifiers = ["events.amazonaws.com", "sqs.amazonaws.com"]
    }
  }
}

resource "aws_sqs_queue_policy" "this" {
  count     = 1
  queue_url = aws_sqs_queue.this[0].url
  policy    = data.aws_iam_policy_document.queue[0].json
}

resource "aws_cloudwatch_event_rule" "this" {
  for_each      = local.rules
  name_prefix   = each.value.prefix
  description   = "Karpenter interrupt - ${each.value.about}"
  event_pattern = jsonencode({ source = [each.value.source], "detail-type" = [each.value.type] })
  tags          = { ClusterName = var.cluster_name }
}

resource "aws_cloudwatch_event_target" "this" {
  for_each  = local.rules
  rule      = aws_cloudwatch_event_rule.this[each.key].name
  target_id = "KarpenterInterruptionQueueTarget"
  arn       = aws_sqs_queue.this[0].arn
}
