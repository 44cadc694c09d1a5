package config

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
	"gopkg.in/yaml.v2"
)

// Narrowing is one setting a change made read less (D87): check --base
// reports it unless retired: acknowledges it.
type Narrowing struct {
	// Key is the setting, dotted as SettingKeys names it.
	Key string
	// What says how it narrowed, in words, values quoted.
	What string
}

// loosening lists the settings whose new entries, not removed ones, let
// more through: a frozen range keeps a stale range at a site.
var loosening = map[string]bool{"frozen_ranges": true}

// SettingKeys lists every setting of .claimslint.yml a change can narrow,
// dotted (tracker.prefixes), derived from Config's own fields: a setting
// added to Config is compared without a list to keep.
func SettingKeys() []string {
	var keys []string
	settings(reflect.TypeFor[Config](), "", func(key string, _ []int) { keys = append(keys, key) })
	return keys
}

// settings calls leaf for each setting of struct type t: its dotted key
// and its field index path.
func settings(t reflect.Type, prefix string, leaf func(key string, index []int)) {
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" || name == "retired" {
				continue
			}
			at := append(slices.Clone(index), i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				walk(ft, prefix+name+".", at)
				continue
			}
			leaf(prefix+name, at)
		}
	}
	walk(t, prefix, nil)
}

// field returns the value at index in v, through nil pointers to structs
// (read as their zero value).
func field(v reflect.Value, index []int) reflect.Value {
	for _, i := range index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v = reflect.New(v.Type().Elem()).Elem()
			} else {
				v = v.Elem()
			}
		}
		v = v.Field(i)
	}
	return v
}

// Narrowed lists the settings of now that read less than base's: a path
// or glob changed (another register, a narrower scope), an entry gone
// from a list (a range site, an adopted folder, a tracker prefix), a
// status word or workflow mapping dropped or remapped, require_claims
// turned off, a frozen range added. A setting that only adds (a mention
// glob, a status word) is not in it.
func Narrowed(base, now Config) []Narrowing {
	var out []Narrowing
	bv, nv := reflect.ValueOf(base), reflect.ValueOf(now)
	settings(bv.Type(), "", func(key string, index []int) {
		if what := narrowed(key, field(bv, index), field(nv, index)); what != "" {
			out = append(out, Narrowing{Key: key, What: what})
		}
	})
	return out
}

// narrowed says how one setting narrowed, or "".
func narrowed(key string, was, now reflect.Value) string {
	switch was.Kind() {
	case reflect.String: // a path, a glob or a word; setting one that was unset reads more
		if was.String() != "" && was.String() != now.String() {
			return fmt.Sprintf("was %q, now %q", was.String(), now.String())
		}
	case reflect.Pointer: // *bool: unset means true (require_claims)
		w, n := was.IsNil() || was.Elem().Bool(), now.IsNil() || now.Elem().Bool()
		if w && !n {
			return "was true, now false"
		}
	case reflect.Slice:
		from, to := entries(was), entries(now)
		if loosening[key] {
			from, to = to, from
		}
		var gone []string
		for _, e := range from {
			if !slices.Contains(to, e) {
				gone = append(gone, e)
			}
		}
		if len(gone) > 0 {
			verb := "drops"
			if loosening[key] {
				verb = "adds"
			}
			return verb + " " + some(gone)
		}
	case reflect.Map:
		var gone []string
		for _, k := range was.MapKeys() {
			nv := now.MapIndex(k)
			if !nv.IsValid() || nv.String() != was.MapIndex(k).String() {
				gone = append(gone, fmt.Sprintf("%q: %q", k.String(), was.MapIndex(k).String()))
			}
		}
		sort.Strings(gone)
		if len(gone) > 0 {
			return "drops or remaps " + some(gone)
		}
	}
	return ""
}

// entries renders each element of a list setting as its YAML, so two
// entries compare as a reader of the file would.
func entries(v reflect.Value) []string {
	out := make([]string, 0, v.Len())
	for i := range v.Len() {
		e := v.Index(i).Interface()
		if s, ok := e.(string); ok {
			out = append(out, fmt.Sprintf("%q", s))
			continue
		}
		b, err := yaml.Marshal(e)
		if err != nil {
			out = append(out, fmt.Sprintf("%v", e))
			continue
		}
		out = append(out, "{"+strings.Join(strings.Split(strings.TrimSpace(string(b)), "\n"), ", ")+"}")
	}
	return out
}

// some joins up to three items, and counts the rest.
func some(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

// validRetired checks retired:'s entries: each names a decision, a claim
// row or a setting, with a reason.
func validRetired(rs []Retirement) error {
	keys := SettingKeys()
	for i, r := range rs {
		id := strings.TrimSpace(r.ID)
		dec, claim, isClaim := strings.Cut(id, "/")
		switch {
		case isDecisionID(id), isClaim && isDecisionID(dec) && claim != "" && !strings.ContainsAny(claim, " \t/"):
		case slices.Contains(keys, id):
		default:
			return fmt.Errorf("retired[%d].id %q: want a decision (D7), a claim row (D7/C2) or a setting (%s)", i, r.ID, strings.Join(keys, ", "))
		}
		if strings.TrimSpace(r.Reason) == "" {
			return fmt.Errorf("retired[%d] (%s): give a reason: the reviewer reads it", i, id)
		}
		rs[i].ID = id
	}
	return nil
}

// isDecisionID reports whether s is a decision id, by the register's
// own grammar: the id part of a decision file's name (D7, D12a).
func isDecisionID(s string) bool {
	m := register.FileNameRE.FindStringSubmatch(s + "-r.md")
	return m != nil && m[1] == s
}

// Acknowledges reports whether an entry of now's retired: that base's
// did not have names id: an acknowledgement counts in the change that
// writes it, where the reviewer reads it, and never again. The entry is
// returned for its reason.
func Acknowledges(base, now Config, id string) (Retirement, bool) {
	for _, r := range now.Retired {
		if r.ID == id && !slices.ContainsFunc(base.Retired, func(b Retirement) bool { return b.ID == id }) {
			return r, true
		}
	}
	return Retirement{}, false
}
