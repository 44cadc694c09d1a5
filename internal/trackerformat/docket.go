package trackerformat

// DocketFormat is docket's own export: one JSON object a line, each with
// docket's schema key. docket writes it with its own codec (the canonical
// export), and refuses a record whose title breaks recordtext's rules.
//
//registry:formats 1
var DocketFormat = &Format{
	Name:  Docket,
	Desc:  "docket's canonical export",
	Help:  "the canonical export",
	Why:   "docket's records: a line with a schema key (internal/trackerformat.Detect)",
	Sniff: func(t []byte) bool { probe, ok := firstObject(t); _, schema := probe["schema"]; return ok && schema },
	Walk:  walkLines,
	Read:  readJSONL,
	Noun:  "a JSON object",
	// docket refuses a bad title, and so its whole export (D67).
	StrictTitles: true,
}
