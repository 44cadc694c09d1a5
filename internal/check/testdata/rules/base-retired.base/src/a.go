package src

func screen() {}

func frame() {}
