//go:build !race

package codeline

const raceSample = 1
