package src

// want `D1 "Screen input" C2: the change removed the line its Anchor .const.maxLine. matched at base \(src/a.go:3\), so the claim fails: restore it, or change the claim row with the code`
// func screen() {} // want `D1 "Screen input" C1: the change moved the line its Anchor .func screen\\\(. matched at base here, a comment, a string or a test, which its Kind .present. does not read, so the claim fails`

func frame() {}
