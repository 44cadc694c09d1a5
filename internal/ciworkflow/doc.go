// Package ciworkflow is the GitHub Actions workflow claimslint init
// writes (D43, D85, D86): it builds claimslint, and docket where the
// register's tracker is docket, from a pinned source, then runs each of
// Gates; and the edit init --adopt makes to a repository's own workflow
// to add that build and the check step (dk-iw1).
package ciworkflow
