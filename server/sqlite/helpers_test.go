package sqlite

import "github.com/claimslint/claimslint/server"

var filterAll = server.Filter{}

func newIssue(title string) server.NewIssue { return server.NewIssue{Title: title} }
