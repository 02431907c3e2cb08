return ("x"):rep(100000):len(), string.rep("ab", 3, ","), ("abc"):byte(1, -1)
