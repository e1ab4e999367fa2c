# 1.x with EKS Pod Identity, a node role made by the IAM stack and a customer managed key on the queue.
cluster_name = "prod-east"
region = "us-east-1"
karpenter_chart_version = "1.14.1"
controller_identity = "pod_identity"
create_iam_role = true
queue_kms_key_id = "alias/karpenter-queue"
ami_family = "AL2023"
node_labels = { team = "platform" }
node_taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
node_pools = [{ name = "on-demand", capacity_types = ["on-demand"] }]
tags = { Env = "prod" }
