/* half */ 1/2
