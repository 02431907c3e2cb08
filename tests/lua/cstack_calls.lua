-- C recursion ends in "C stack overflow" on every board (issue 17).
local function r() pcall(r) return string.format("%g", 1.5) end
local function g(s) return (s:gsub(".", g)) end
local ok, e = pcall(g, "ab")
assert(select(2, pcall(r)) == "1.5" and not ok and e:find"overflow")
print("ok")
