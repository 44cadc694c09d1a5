package check

import "testing"

func TestRequiredLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`func recoverID\(`, "func recoverID("},
		{`\bsym12\b`, "sym12"},
		{`case idRecovered:`, "case idRecovered:"},
		{`a|b`, ""},
		{`(?i)hello`, ""},
		{`x*`, ""},
		{`(foo)+bar`, "foo"},
		{`reply\(id\b`, "reply(id"},
		{`const maxLine\s*=\s*16`, "const maxLine"},
	} {
		if got := requiredLiteral(tc.in); got != tc.want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
