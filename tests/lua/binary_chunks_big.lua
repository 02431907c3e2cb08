--! host heavy
-- Binary chunks of what the compiler makes at its limits give the same
-- results as their sources: constants past LOADK (LOADKX), 199 locals,
-- 150 upvalues, functions nested 60 deep, 3,000 lines far apart (absolute
-- line entries) in one block, a 70,000-item constructor (SETLIST with
-- EXTRAARG), open results, tbc and goto out of a loop with captures.
-- Host only: the sources take megabytes.
local function check(src, ...)
  local f = assert(load(src, "=big"))
  local a = table.pack(f(...))
  for _, strip in ipairs{false, true} do
    local s = string.dump(f, strip)
    local g, e = load(s, "=big", "b")
    assert(g, e)
    local b = table.pack(g(...))
    assert(a.n == b.n)
    for i = 1, a.n do assert(a[i] == b[i], i) end
  end
  return a[1]
end
-- many constants: LOADKX
local t = {"local t = {"}
for i = 1, 140000 do t[#t + 1] = ("'c%d',"):format(i) end
t[#t + 1] = "} return #t, t[140000]"
assert(check(table.concat(t)) == 140000)
-- many locals and upvalues
t = {}
for i = 1, 199 do t[#t + 1] = ("local v%d = %d"):format(i, i) end
t[#t + 1] = "return (function() return v1 + v199 end)()"
assert(check(table.concat(t, "\n")) == 200)
t = {"local "}
for i = 1, 150 do t[#t + 1] = ("u%d%s"):format(i, i < 150 and "," or "") end
t[#t + 1] = " = " for i = 1, 150 do t[#t + 1] = i .. (i < 150 and "," or "") end
t[#t + 1] = "\nlocal x = 0\nreturn (function() "
for i = 1, 150 do t[#t + 1] = ("x = x + u%d "):format(i) end
t[#t + 1] = "return x end)()"
assert(check(table.concat(t)) == 11325)
-- deep nesting of functions
local d = 60
assert(check(("return (function() "):rep(d) .. "return 42" .. (" end)()"):rep(d)) == 42)
-- long straight code with lines far apart, long jumps
t = {"local s = 0 if s == 0 then"}
for i = 1, 3000 do t[#t + 1] = ("s = s + %d"):format(i) .. ("\n"):rep(i % 300) end
t[#t + 1] = "end return s"
assert(check(table.concat(t, "\n")) == 4501500)
-- big constructor: SETLIST with EXTRAARG
t = {"return #{"}
for i = 1, 70000 do t[#t + 1] = i .. "," end
t[#t + 1] = "}"
assert(check(table.concat(t)) == 70000)
-- varargs into calls and constructors, tbc, goto out of blocks with captured vars
assert(check([[
local r = {}
local function f(...) return select('#', ...), ... end
for i = 1, 3 do
  local c = function() return i end
  r[#r + 1] = c
  if i == 2 then goto out end
end
::out::
do local x <close> = setmetatable({}, {__close = function() r.closed = true end}) end
local t = {f(1, 2, 3)}
return #r, r.closed, #t, select('#', f(...)), table.unpack({...})
]], 1, 2, nil) == 2)
print("ok")
