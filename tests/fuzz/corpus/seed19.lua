for i = math.maxinteger - 2, math.maxinteger do end for x = 1.0, 0, -0.25 do end
