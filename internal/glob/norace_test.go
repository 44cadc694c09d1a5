//go:build !race

package glob

const raceEnabled = false
