local t = {1, 2, 3, x = 1} for i, v in ipairs(t) do t[i] = v * 2 end return #t
