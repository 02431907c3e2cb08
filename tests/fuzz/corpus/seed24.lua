local a, b, c = (function() return 1, 2, 3 end)() a, b = b, a return a .. b .. c
