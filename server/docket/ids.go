package docket

import (
	"crypto/rand"
	"fmt"
	"math/big"
)

// MinIDLen is the shortest random part of an id.
const MinIDLen = 3

// IDLen returns the length of the random part for a tracker that has
// allocated n ids: the shortest length, at least MinIDLen, whose id space is
// 100 times larger than n+1, so a fresh draw collides with an existing id
// less than once in a hundred tries (and the collision check catches that
// one).
func IDLen(n int) int {
	l := MinIDLen
	space := int64(36 * 36 * 36)
	for space < 100*int64(n+1) && l < 12 {
		space *= 36
		l++
	}
	return l
}

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// NewID draws a random id <prefix>-<base36> of the length IDLen gives for
// n allocated ids, from crypto/rand. The caller checks it against the ids
// already allocated, inside its write transaction, and draws again on a
// collision.
func NewID(prefix string, n int) (string, error) {
	l := IDLen(n)
	b := make([]byte, l)
	max := big.NewInt(36)
	for k := range b {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", fmt.Errorf("draw id: %w", err)
		}
		b[k] = base36[v.Int64()]
	}
	return prefix + "-" + string(b), nil
}
