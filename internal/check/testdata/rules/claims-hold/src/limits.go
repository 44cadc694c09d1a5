package src

const maxLine = 16 << 10 // want "anchored line does not match Require `= 16 << 20`"

func Limit() int { return maxLine }

func f() {
	panic("no") // want "forbidden .panic.* is present: it must match no code line"
}
