// Test fixture written for InstanceCatalogueTest in the layout of Karpenter's generated
// pkg/providers/pricing/zz_generated.pricing_aws.go: the generation line and the prices of a few types.

package pricing

// generated at 2026-07-06T14:20:29Z for us-east-1

var InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{
	// us-east-1
	"us-east-1": {
		// a1 family
		"a1.2xlarge": 0.204000, "a1.4xlarge": 0.408000, "a1.large": 0.051000, "a1.medium": 0.025500,
		// c7a family
		"c7a.large": 0.102640, "c7a.medium": 0.051320, "c7a.metal-48xl": 9.853440, "c7a.xlarge": 0.205280,
	},
}
