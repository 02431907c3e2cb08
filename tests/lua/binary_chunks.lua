--! big
-- Binary chunks from Lua (string.dump, load in mode "b"): functions of
-- every kind give the same results from their dumps, dumps are stable,
-- stripping drops the debug information only, the modes are enforced,
-- every truncation is refused, and corrupted chunks either are refused
-- with "bad binary format" or load code that runs (under a count hook)
-- without breaking the interpreter.
local function reload(f, strip)
  local s = string.dump(f, strip)
  local g = assert(load(s, "=reloaded", "b"))
  assert(string.dump(g, strip) == s, "unstable dump")
  return g, s
end

-- functions without upvalues other than _ENV, with what they return
local cases = {
  {function (a, b) return a + b, a - b, a * b end, {7, 5}},
  {function (...) return select('#', ...), ... end, {1, nil, 3}},
  {function (n) local t = {} for i = 1, n do t[i] = i * i end return #t, t[n] end, {9}},
  {function (t) local s = 0 for k, v in pairs(t) do s = s + v end return s end, {{1, 2, 3}}},
  {function () local s = "" for i = 10, 1, -3 do s = s .. i .. "," end return s end, {}},
  {function (x) if x > 0 then return "pos" elseif x < 0 then return "neg" end return "zero" end, {-3}},
  {function () local i = 0 repeat i = i + 1 until i >= 5 return i end, {}},
  {function () local i = 0 while true do i = i + 1 if i == 7 then break end end return i end, {}},
  {function () local n = 0 for i = 1, 3 do for j = 1, 3 do if j == 2 then goto continue end n = n + 1 ::continue:: end end return n end, {}},
  {function (a) local f = function (b) return a .. b end return f("y"), (function (...) return ... end)(a) end, {"x"}},
  {function () local o = {v = 2} function o:get(k) return self.v * k end return o:get(21) end, {}},
  {function () return 1 // 0.0, -7 // 2, 7 % -3, 2^10, 5 / 2, 3 | 4, 6 & 3, 5 ~ 1, ~0, 1 << 3, 256 >> 4 end, {}},
  {function () return "a long string constant, longer than forty bytes", 'short', 1e30, -0.0 end, {}},
  {function (x) return x == nil, x ~= false, not x, #"abc", -x end, {3}},
  {function () local t = setmetatable({}, {__index = function (_, k) return k * 2 end}) return t[21] end, {}},
  {function () return pcall(error, "e") end, {}},
  {function () local co = coroutine.wrap(function (a) local b = coroutine.yield(a + 1) return b * 2 end) return co(1), co(5) end, {}},
  {function () local r = {} do local x <close> = setmetatable({}, {__close = function () r[1] = "closed" end}) end return r[1] end, {}},
  {function (...) local a, b <const> = ... return b, a end, {4, 5}},
  {function () local t = {1, 2, 3, [10] = 10, x = "x", [1.5] = 1.5} return #t, t[10], t.x, t[1.5] end, {}},
  {function (n) local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end return fib(n) end, {15}},
  {function () return string.format("%d %s %5.2f", 42, "s", 1.25), ("x"):rep(3, "-") end, {}},
}
local function same(f, args)
  local a = table.pack(f(table.unpack(args, 1, #args)))
  for _, strip in ipairs({false, true}) do
    local g = reload(f, strip)
    local b = table.pack(g(table.unpack(args, 1, #args)))
    assert(a.n == b.n, "result count")
    for i = 1, a.n do
      assert(a[i] == b[i] or (a[i] ~= a[i] and b[i] ~= b[i]), "result " .. i)
    end
  end
end
for i, c in ipairs(cases) do
  local ok, err = pcall(same, c[1], c[2])
  assert(ok, "case " .. i .. ": " .. tostring(err))
end

-- a main chunk with nested functions, from text to binary and back
local main = assert(load([[
  local acc = {}
  local function add(x) acc[#acc + 1] = x return add end
  add(1)(2)(3)
  return table.concat(acc, "+"), select('#', ...)
]], "=main"))
local g, bin = reload(main)
assert(select(1, g(1, 2)) == "1+2+3" and select(2, g(1, 2)) == 2)
local sg, sbin = reload(main, true)
assert(#sbin < #bin and sg() == "1+2+3")

-- debug information survives a dump and goes with strip
local src = assert(load("local function f(p)\n  local q = p\n  error('boom')\nend\nreturn f", "=dbg"))()
local ok, err = pcall(reload(src), 1)
assert(not ok and err == "dbg:3: boom", err)
ok, err = pcall(reload(src, true), 1)
assert(not ok and err == "boom", err)
assert(debug.getlocal(reload(src), 1) == "p" and debug.getlocal(reload(src, true), 1) == nil)
local info = debug.getinfo(reload(src, true), "S")
assert(info.source == "=?" and info.linedefined == 1 and info.lastlinedefined == 4)

-- upvalues are fresh: the first is _ENV (or load's env), the rest nil
local a, b = 1, 2
local function ups() return a, b end
local u = reload(ups)
assert(u() == _G and select(2, u()) == nil)
assert(load(string.dump(ups), "=e", "b", "env")() == "env")

-- modes
assert(select(2, load(bin, "=m", "t")) == "attempt to load a binary chunk (mode is 't')")
assert(select(2, load("return 1", "=m", "b")) == "attempt to load a text chunk (mode is 'b')")
assert(load(bin, "=m", "bt") and load(bin, "=m"))
assert(select(2, pcall(string.dump, print)) == "unable to dump given function")

-- every truncation, and bytes after the end
for n = 1, #bin - 1 do
  local f, e = load(bin:sub(1, n), "=t")
  assert(not f and e == "t: bad binary format (truncated chunk)", e)
end
assert(select(2, load(bin .. "\0", "=t")) ==
       "t: bad binary format (corrupted chunk: bytes after the end)")

-- random corruption: refused, or loads and runs without harm (the
-- escape byte changed makes it text)
math.randomseed(2024)
local loaded, refused = 0, 0
local function bounded(f)
  debug.sethook(function () error("instruction limit") end, "", 5000)
  pcall(f)
  debug.sethook()
end
for _, chunk in ipairs({bin, sbin, string.dump(cases[12][1]), string.dump(cases[9][1], true)}) do
  for _ = 1, 60 do
    local bytes = {chunk:byte(1, -1)}
    for _ = 1, math.random(1, 3) do
      local at = math.random(#bytes)
      bytes[at] = math.random(0, 255)
    end
    local s = string.char(table.unpack(bytes))
    local f, e = load(s, "=c", "b")
    if f then
      loaded = loaded + 1
      debug.setupvalue(f, 1, {}) -- no globals to touch
      bounded(f)
    else
      assert(e:find("^c: bad binary format %(") or e == "not enough memory" or
             e == "attempt to load a text chunk (mode is 'b')", e)
      refused = refused + 1
    end
  end
end
assert(loaded > 0 and refused > 0, loaded .. " " .. refused)
collectgarbage()
print("ok")
