package src

const maxLine = 16 << 20

const maxFrame = 1 << 10

func screen() {}
