local t = {} for i = 1, 1000 do t[#t + 1] = {i} end for i = 1, 500 do table.remove(t) end return #t
