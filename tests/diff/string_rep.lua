-- string.rep against lua5.4: separators, n = 0, 1 and negative, empty
-- pieces, results that straddle the doubling steps, argument coercion,
-- and results too large to build.
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = string.format("%q", t[i]) end
  print(table.concat(t, " "))
end
show(("ab"):rep(3, ","), ("ab"):rep(1, ","), ("ab"):rep(0, ","), ("ab"):rep(-1, ","))
show(("x"):rep(5, ""), (""):rep(4, "-"), (""):rep(1, "-"), (""):rep(0, "-"))
show(("a\0b"):rep(3, "\0"), ("\255"):rep(4, "\1\2"), ("x"):rep(-100))
show(("x"):rep(math.mininteger, "s"), ("y"):rep(3.0), ("z"):rep("4"), ("w"):rep(" 2 "))
for _, n in ipairs({7, 8, 9, 15, 16, 17, 1023, 1024, 1025}) do
  local r = ("abc"):rep(n, "<>")
  print(n, #r, r:sub(1, 12), r:sub(-12), r:sub(#r // 2, #r // 2 + 9))
end
local big = ("0123456789"):rep(100000, "|")
print(#big, big:sub(1, 25), big:sub(-25), big:sub(500001, 500030))
local function try(...)
  print(pcall(string.rep, ...))
end
try("x", 2^31)
try("xx", math.maxinteger)
try("ab", 1 << 30, ",")
try("x", 1 << 30, "y" .. ("z"):rep(1 << 10))
try("", math.maxinteger, ",,")
try("x", 2.5)
try("x", "many")
try("x", 3, {})
try({}, 3)
