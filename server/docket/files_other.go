//go:build !unix

package docket

// oNonblock is 0 where there is no O_NONBLOCK; named pipes are refused by
// their mode after the open.
const oNonblock = 0
