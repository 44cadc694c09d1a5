// Package ruleid names every rule claimslint reports, in one place. It is a
// leaf: the packages that emit findings (register, tracker, check, audit)
// import it, and it imports nothing, so an id is defined once and a rule's
// documentation (check.Rules) is keyed by the same constant the emitter uses.
//
// The ids of check.Rules are generated (ruleid_gen.go) from the rules'
// files, internal/check/rule_clNNN_name.go, each the number its file's name
// carries (D103); `claimslint explain ID` prints each one's documentation.
// The id of a rule that is not in check.Rules is declared here.
package ruleid

// Backlinks is audit's rule (its value is audit.Rule).
const Backlinks = "CL013" // tracker and register name each other (audit)
