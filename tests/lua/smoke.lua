-- Small enough for microbit's arena beside the REPL's state.
local function f(n) if n < 2 then return n end return f(n-1) + f(n-2) end
local t = {}
for i = 1, 9 do t[i] = f(i) end
local ok, e = pcall(error, "x", 0)
assert(#t == 9 and t[9] == 34 and not ok and e == "x")
print("ok")
