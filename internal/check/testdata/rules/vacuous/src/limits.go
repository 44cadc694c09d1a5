package src

const maxLine = 16 << 20

func Limit() int { return maxLine }

func f(n int) int { return n + int(0) }

func g() { retry(1) }
func h() { retry(2) }

func retry(int) {}
