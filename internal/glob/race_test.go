//go:build race

package glob

// raceEnabled turns off the time budget of FuzzGlobMatch: the race
// detector slows matching several times over.
const raceEnabled = true
