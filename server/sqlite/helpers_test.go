package sqlite

import "github.com/claimslint/claimslint/server/docket"

var filterAll = docket.Filter{}

func newIssue(title string) docket.NewIssue { return docket.NewIssue{Title: title} }
