//go:build race

package register

// raceEnabled turns off the time budget of FuzzHostileRegister: the race
// detector slows parsing several times over.
const raceEnabled = true
