package lib

// Not a script: CL005 claims no Go file beside the scripts (D86).
func F() {}
