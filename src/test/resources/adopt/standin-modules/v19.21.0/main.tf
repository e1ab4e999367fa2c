# Hand-written stand-in for terraform-aws-modules' modules/karpenter at v19.21.0, for AdoptionIT only (see
# ../README.md). It creates the resources that module creates for the seed guide's inputs, at the same addresses and
# with the same AWS names; the policies are small, not Karpenter's real ones.

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

variable "irsa_oidc_provider_arn" {
  type = string
}

variable "irsa_namespace_service_accounts" {
  type = list(string)
}

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

data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

locals {
  # The OIDC issuer without its scheme, as IAM condition keys name it.
  oidc_issuer = element(split(":oidc-provider/", var.irsa_oidc_provider_arn), 1)
  irsa_role   = "KarpenterIRSA-${var.cluster_name}"
  node_role   = element(split("/", var.iam_role_arn), length(split("/", var.iam_role_arn)) - 1)
  queue       = "Karpenter-${var.cluster_name}"

  # Keys (the spelling of spot_interupt included) and rule name prefixes as v19.21.0 has them.
  rules = {
    health_event          = { prefix = "KarpenterHealthEvent-", source = "aws.health", type = "AWS Health Event", about = "AWS health event" }
    spot_interupt         = { prefix = "KarpenterSpotInterrupt-", source = "aws.ec2", type = "EC2 Spot Instance Interruption Warning", about = "EC2 spot instance interruption warning" }
    instance_rebalance    = { prefix = "KarpenterInstanceRebalance-", source = "aws.ec2", type = "EC2 Instance Rebalance Recommendation", about = "EC2 instance rebalance recommendation" }
    instance_state_change = { prefix = "KarpenterInstanceStateChange-", source = "aws.ec2", type = "EC2 Instance State-change Notification", about = "EC2 instance state-change notification" }
  }
}

# The controller's role, assumed through the cluster's OIDC provider.
data "aws_iam_policy_document" "irsa_assume_role" {
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

resource "aws_iam_role" "irsa" {
  count              = 1
  name               = var.irsa_use_name_prefix ? null : local.irsa_role
  name_prefix        = var.irsa_use_name_prefix ? "${local.irsa_role}-" : null
  description        = "Karpenter IAM role for service account"
  assume_role_policy = data.aws_iam_policy_document.irsa_assume_role[0].json

  force_detach_policies = true
}

# A token controller policy: the queue's messages and passing the node role.
data "aws_iam_policy_document" "irsa" {
  count = 1
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:GetQueueAttributes"]
    resources = [aws_sqs_queue.this[0].arn]
  }
  statement {
    actions   = ["iam:PassRole"]
    resources = [var.iam_role_arn]
  }
}

resource "aws_iam_policy" "irsa" {
  count       = 1
  name_prefix = "${local.irsa_role}-"
  description = "Karpenter IAM role for service account"
  policy      = data.aws_iam_policy_document.irsa[0].json
}

resource "aws_iam_role_policy_attachment" "irsa" {
  count      = 1
  role       = aws_iam_role.irsa[0].name
  policy_arn = aws_iam_policy.irsa[0].arn
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

# The nodes' instance profile, around the role the caller passed.
resource "aws_iam_instance_profile" "this" {
  count       = 1
  name_prefix = "Karpenter-${var.cluster_name}-"
  role        = local.node_role
}
