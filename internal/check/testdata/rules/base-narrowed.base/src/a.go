package src

func screen() {}
