return (function(a, b, c) return c, b, a end)(1, 2, 3)
