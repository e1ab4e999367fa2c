# 1.10 (capacity reservation rule) with IRSA and the node group's role.
cluster_name = "alpha"
region = "eu-west-1"
karpenter_chart_version = "1.10.2"
