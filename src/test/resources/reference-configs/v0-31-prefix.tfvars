# 0.31 with a name-prefixed controller role and a node role made by the IAM stack.
cluster_name = "beta"
region = "eu-west-1"
karpenter_chart_version = "v0.31.5"
irsa_use_name_prefix = true
sts_regional_endpoints = true
create_iam_role = true
