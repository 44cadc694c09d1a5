package adopt

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
)

// supersedingLabel is the link text an adopted record's tool writes for
// the record that supersedes it (D73): adr-tools' "12. Title" in a Status
// section; elsewhere the name up to its number as the collection writes it
// (ODH-ADR-Operator-0017, adr-020) or MADR's ADR-0012 for a bare number;
// the file name for a date-named or unnumbered record.
func supersedingLabel(old *register.Decision, file, title string) string {
	base := path.Base(file)
	if b := strings.ToLower(base); b == "readme.md" || b == "index.md" {
		base = path.Base(path.Dir(file)) + ".md" // one folder per record: the folder names it
	}
	name := strings.TrimSuffix(base, ".md")
	if dateNameRE().MatchString(base) {
		return name
	}
	prefixed := prefixedNameRE().FindStringSubmatch(base)
	m := leadingNumberRE().FindString(base)
	if m == "" && prefixed != nil {
		m = prefixed[1]
	}
	n, err := strconv.Atoi(m)
	switch {
	case m == "" || err != nil:
		return name
	case old.StatusFrom == "heading":
		return fmt.Sprintf("%d. %s", n, title)
	case prefixed != nil:
		return prefixed[0]
	}
	return "ADR-" + m
}

var (
	leadingNumberRE = register.LazyRE(`^[0-9]{1,9}`)
	dateNameRE      = register.LazyRE(`^(?:19|20)[0-9]{2}[-_]?(?:0[1-9]|1[0-2])`)
	prefixedNameRE  = register.LazyRE(`^(?:[A-Za-z][A-Za-z0-9]*-)+([0-9]{1,9})`)
)
