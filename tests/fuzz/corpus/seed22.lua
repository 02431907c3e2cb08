local f = load("return ...") return f(1, 2)
