package register

import "strings"

// StatusKeys are the names a record gives its status, in the same
// languages (D97): a front matter key, a "Key: value" line, a heading or
// a metadata table's first cell. stage is front matter's staged process
// (emberjs' RFCs); state is giantswarm's.
var StatusKeys = []string{"status", "state", "stage", "estado", "statut", "stato", "situação", "状态", "狀態", "ステータス", "状態", "상태"}

// IsStatusKey reports whether a key, heading or cell names the status: one
// of StatusKeys, in any case, with a parenthesised gloss ("상태 (Status)",
// "Estado (Status)") or a slash-separated translation ("背景 / Status")
// allowed.
func IsStatusKey(k string) bool { return isKey(k, StatusKeys) }

// IsStatusHeading reports whether a heading or a "Key: value" line names
// the status: a status key other than state and stage, which name
// sections and lines of a design's own subject ("### State" in an RFC
// about React's state) and are read from front matter and tables only.
func IsStatusHeading(k string) bool { return isKey(k, lineKeys) }

var lineKeys = func() []string {
	var out []string
	for _, k := range StatusKeys {
		if k != "state" && k != "stage" {
			out = append(out, k)
		}
	}
	return out
}()

func isKey(k string, keys []string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	for _, part := range strings.FieldsFunc(k, func(r rune) bool { return r == '(' || r == ')' || r == '/' || r == '（' || r == '）' }) {
		part = strings.Trim(strings.TrimSpace(part), "*_:：")
		for _, s := range keys {
			if part == s {
				return true
			}
		}
	}
	return false
}
