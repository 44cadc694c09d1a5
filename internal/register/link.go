package register

import (
	"net/url"
	"path"
	"strings"
)

// LinkTarget is the repository path a register row's link names: the
// link below the register's folder dir, its #fragment cut, its %XX
// escapes decoded ("0001-c%23-style.md" is the file "0001-c#-style.md";
// D96).
func LinkTarget(dir, link string) string {
	dest, _, _ := strings.Cut(link, "#")
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return path.Clean(path.Join(dir, dest))
}
