// Package ruleid names every rule claimslint reports, in one place. It is a
// leaf: the packages that emit findings (register, tracker, check, audit)
// import it, and it imports nothing, so an id is defined once and a rule's
// documentation (check.Rules) is keyed by the same constant the emitter uses.
package ruleid

// The rule ids. `claimslint explain ID` prints each one's documentation.
const (
	Register  = "CL001" // register rows and decision files correspond
	Status    = "CL002" // statuses and supersession
	Range     = "CL003" // every range site carries the live range
	Tracker   = "CL004" // tracker ids resolve in the export
	Scripts   = "CL005" // check scripts are executable and run by a workflow
	Claims    = "CL006" // claim tables are well-formed
	Claim     = "CL007" // claims of accepted decisions hold
	Markdown  = "CL008" // Markdown is readable: UTF-8, front matter
	Vacuous   = "CL009" // a claim must be able to fail (prove)
	Count     = "CL010" // a count stated before a list equals its length
	Base      = "CL011" // a claim row changed since --base changes code too
	Deleted   = "CL012" // claims of accepted decisions are not deleted
	Backlinks = "CL013" // tracker and register name each other (audit)
	Retired   = "CL014" // an accepted decision retires by supersession (--base)
	Narrowed  = "CL015" // the configuration reads no less than at --base
	Here      = "CL016" // a claim the change broke, at the line it removed or moved (--base)
)
