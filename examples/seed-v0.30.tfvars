# The seed guide's own setup, as it was written: Karpenter v0.30.0 with a Provisioner and an AWSNodeTemplate,
# Bottlerocket nodes, IRSA for the controller, the nodes reusing the role of the managed node group "default", and
# the service account annotated for regional STS endpoints.
#   KARPENTER_TFVARS=examples/seed-v0.30.tfvars bin/cdktf synth
#
# Karpenter v0.30 supports Kubernetes 1.23 to 1.27 only, so it runs on no cluster EKS offers today (1.32 to 1.36):
# only on an existing cluster still at 1.23-1.27 (the plan stops on any other). To move such a cluster to a current
# Karpenter, follow README "Upgrading from the seed's v0.30" (bin/upgrade-path prints the steps).

cluster_name = "eks-cluster"
region       = "ap-southeast-1"

karpenter_chart_version   = "v0.30.0"
karpenter_namespace       = "karpenter"
karpenter_service_account = "karpenter"

controller_identity  = "irsa"
irsa_use_name_prefix = false
create_iam_role      = false
node_group_name      = "default"

sts_regional_endpoints = true

ami_family        = "Bottlerocket"
discovery_tag_key = "karpenter.sh/discovery"

# The guide's default Provisioner: spot and on-demand, amd64, instance categories c, m, r of generation 3 or later.
capacity_types          = ["spot", "on-demand"]
architectures           = ["amd64"]
instance_categories     = ["c", "m", "r"]
instance_generation_min = 3
cpu_limit               = 1000
consolidation           = true

tags = {
  ManagedBy = "karpenter-cdktf"
}
