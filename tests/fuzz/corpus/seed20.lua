local t = {} t[1.0] = 1 t[2^53] = 2 t["1"] = 3 return t[1], rawlen(t), next(t)
