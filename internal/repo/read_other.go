//go:build !linux

package repo

// fastRead is false where readNoLinks is not implemented: reads go through
// os.Root and a Lstat of every component.
const fastRead = false

func (r *Repo) readNoLinks(rel string, max int64, buf []byte) ([]byte, error) {
	panic("repo: readNoLinks without fastRead")
}
