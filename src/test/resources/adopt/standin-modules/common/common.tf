# Hand-written, for AdoptionIT only (see ../README.md): what both stand-ins share. AdoptionIT copies this file into
# each version's module directory, so these resources sit at the same addresses as in the real module. Each version's
# main.tf sets local.spot_interruption_key and local.node_role_arn.

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

data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

locals {
  # The OIDC issuer without its scheme, as IAM condition keys name it.
  oidc_issuer = element(split(":oidc-provider/", var.irsa_oidc_provider_arn), 1)
  queue       = "Karpenter-${var.cluster_name}"

  # Rule keys and name prefixes as the real module has them; only the spot key's spelling changed between versions.
  rules = {
    health_event                  = { prefix = "KarpenterHealthEvent-", source = "aws.health", type = "AWS Health Event", about = "AWS health event" }
    (local.spot_interruption_key) = { prefix = "KarpenterSpotInterrupt-", source = "aws.ec2", type = "EC2 Spot Instance Interruption Warning", about = "EC2 spot instance interruption warning" }
    instance_rebalance            = { prefix = "KarpenterInstanceRebalance-", source = "aws.ec2", type = "EC2 Instance Rebalance Recommendation", about = "EC2 instance rebalance recommendation" }
    instance_state_change         = { prefix = "KarpenterInstanceStateChange-", source = "aws.ec2", type = "EC2 Instance State-change Notification", about = "EC2 instance state-change notification" }
  }
}

# The controller's role is assumed through the cluster's OIDC provider.
data "aws_iam_policy_document" "controller_assume_role" {
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

# A token controller policy: the queue's messages and passing the node role.
data "aws_iam_policy_document" "controller" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:GetQueueAttributes"]
    resources = [aws_sqs_queue.this[0].arn]
  }
  statement {
    actions   = ["iam:PassRole"]
    resources = [local.node_role_arn]
  }
}

# The interruption queue and the rules that feed it.
resource "aws_sqs_queue" "this" {
  count                     = 1
  name                      = local.queue
  message_retention_seconds = 300
  sqs_managed_sse_enabled   = true
}

data "aws_iam_policy_document" "queue" {
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
  policy    = data.aws_iam_policy_document.queue.json
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
