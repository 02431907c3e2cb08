-- an error escaping from code run by a C function (table.sort's comparator)
local t = {3, 1, 2}
table.sort(t, function(a, b) if a == 2 then error("cmp failed") end return a < b end)
