package format

import "strconv"

// Count writes n and the noun: "1 claim", "0 claims", "3 decision files".
// The plural adds s (es after s, x, ch, sh): every noun claimslint counts
// in a message is regular.
func Count(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n == 1 {
		return s
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if len(noun) >= len(end) && noun[len(noun)-len(end):] == end {
			return s + "es"
		}
	}
	return s + "s"
}

// Verb is the present tense of a verb whose subject counts n: "agrees"
// for 1, "agree" otherwise; is and are for "be".
func Verb(n int, verb string) string {
	if verb == "be" {
		if n == 1 {
			return "is"
		}
		return "are"
	}
	if n == 1 {
		return verb + "s"
	}
	return verb
}
