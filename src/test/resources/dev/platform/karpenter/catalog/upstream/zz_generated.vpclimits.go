// Test fixture written for InstanceCatalogueTest in the layout of Karpenter's generated
// pkg/providers/instancetype/zz_generated.vpclimits.go: the generation line and the limits of three types.
// This file was generated at 2026-05-18T17:08:55Z

package instancetype

var Limits = map[string]*VPCLimits{
	"a1.medium": {
		Interface:               2,
		IPv4PerInterface:        4,
		IsTrunkingCompatible:    true,
		BranchInterface:         10,
		DefaultNetworkCardIndex: 0,
		NetworkCards: []NetworkCard{
			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         0,
			},
		},
		Hypervisor:  "nitro",
		IsBareMetal: false,
	},
	"c7a.medium": {
		Interface:               2,
		IPv4PerInterface:        4,
		IsTrunkingCompatible:    true,
		BranchInterface:         4,
		DefaultNetworkCardIndex: 0,
		NetworkCards: []NetworkCard{
			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         0,
			},
		},
		Hypervisor:  "nitro",
		IsBareMetal: false,
	},
	"p5.48xlarge": {
		Interface:               64,
		IPv4PerInterface:        50,
		IsTrunkingCompatible:    true,
		BranchInterface:         120,
		DefaultNetworkCardIndex: 0,
		NetworkCards: []NetworkCard{
			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         0,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         1,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         2,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         3,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         4,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         5,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         6,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         7,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         8,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         9,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         10,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         11,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         12,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         13,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         14,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         15,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         16,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         17,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         18,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         19,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         20,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         21,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         22,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         23,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         24,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         25,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         26,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         27,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         28,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         29,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         30,
			},

			{
				MaximumNetworkInterfaces: 2,
				NetworkCardIndex:         31,
			},
		},
		Hypervisor:  "nitro",
		IsBareMetal: false,
	},
}
