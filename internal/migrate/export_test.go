package migrate

// BuildSeedTree is buildSeedTree (seedgen_test.go), for TestSeedTree.
var BuildSeedTree = buildSeedTree
