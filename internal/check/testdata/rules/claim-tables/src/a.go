package src

var x = 1
