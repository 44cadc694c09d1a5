package src

const maxLine = 16 << 20

func screen() {}

func frame() {}

// const maxLine documents the limit
