--! medium
-- Library functions that push a caller-chosen number of values ask for
-- the stack room first (lua_checkstack): each is driven here with more
-- values than the LUA_MINSTACK (20) slots a C function starts with, in
-- the main thread and in a coroutine (whose stack starts small).  The
-- RTLUA_APICHECK build stops with "API check failed: stack overflow" at
-- the first push past the room asked for, so under it this file fails
-- for any function that forgets to ask.  On the host, the limits give
-- lua5.4's messages ("too many results to unpack", "string slice too
-- long", "too many results", "too many captures").
-- 3 times LUA_MINSTACK: enough to overflow it, small enough for the
-- 64 KiB of lm3s6965evb
local N = 60
local seq = {}
for i = 1, N do seq[i] = i end
local function count(...) return select("#", ...) end
local function last(...) return (select(-1, ...)) end
local lines = {}
for i = 1, N do lines[i] = "l" end

local function suite()
  -- table.unpack, select
  assert(count(table.unpack(seq)) == N and last(table.unpack(seq)) == N)
  assert(count(table.unpack(seq, 2, N - 1)) == N - 2)
  assert(count(select(2, table.unpack(seq))) == N - 1)
  assert(count(select(-N, table.unpack(seq))) == N)
  -- string.byte, utf8.codepoint
  local s = string.rep("a", N)
  assert(count(s:byte(1, -1)) == N and last(s:byte(1, -1)) == 97)
  assert(count(utf8.codepoint(s, 1, -1)) == N)
  assert(count(utf8.codepoint(string.rep("\u{10FFFF}", N), 1, -1)) == N)
  -- string.unpack: N values and the position
  local vals = {string.unpack(string.rep("B", N), string.rep("\7", N))}
  assert(#vals == N + 1 and vals[N] == 7 and vals[N + 1] == N + 1)
  assert(count(string.unpack(string.rep("z", N), string.rep("\0", N))) == N + 1)
  -- patterns: the most captures (32), in find, match, gmatch and gsub
  local p32 = string.rep("(a)", 32)
  local a32 = string.rep("a", 32)
  assert(count(a32:find(p32)) == 34 and count(a32:match(p32)) == 32)
  for a, b in a32:gmatch(p32) do assert(a == "a" and b == "a") end
  local g = a32:gsub(p32, function (...) return tostring(count(...)) end)
  assert(g == "32")
  assert(count(("x"):match(string.rep("()", 32))) == 32)
  -- coroutine transfers, both ways, with resume and wrap
  local co = coroutine.create(function (...)
    local n = count(...)
    local back = {coroutine.yield(table.unpack(seq))}
    assert(#back == N)
    return n, table.unpack(seq)
  end)
  local r = {coroutine.resume(co, table.unpack(seq))}
  assert(r[1] == true and #r == N + 1)
  r = {coroutine.resume(co, table.unpack(seq))}
  assert(r[1] == true and r[2] == N and #r == N + 2)
  local w = coroutine.wrap(function (...)
    coroutine.yield(...)
    return table.unpack(seq)
  end)
  assert(count(w(table.unpack(seq))) == N and count(w()) == N)
  -- pcall, xpcall, assert and a reader-less load pass many values on
  assert(count(pcall(table.unpack, seq)) == N + 1)
  assert(count(xpcall(table.unpack, debug.traceback, seq)) == N + 1)
  assert(select(2, pcall(count, table.unpack(seq))) == N)
  assert(count(assert(table.unpack(seq))) == N)
  assert(count(load("return ...")(table.unpack(seq))) == N)
  -- io: reads with many formats, from a file and through the default
  -- input; lines with many formats
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  f:write(string.rep("x\n", 2 * N)) f:close()
  f = assert(io.open(name))
  local got = {f:read(table.unpack(lines))}
  assert(#got == N and got[N] == "x")
  f:close()
  io.input(name)
  assert(count(io.read(table.unpack(lines, 1, N))) == N)
  io.input():close()
  io.input(io.stdin)
  local n = 0
  for a in io.lines(name, table.unpack(lines)) do n = n + 1 end
  assert(n == 2)
  assert(os.remove(name))
  -- table.pack and string.char/utf8.char take many arguments (no pushes)
  assert(table.pack(table.unpack(seq)).n == N)
  assert(#string.char(table.unpack(seq)) == N and #utf8.char(table.unpack(seq)) == N)
end

suite()
local co = coroutine.wrap(function () suite() return "done" end)
assert(co() == "done")

if os.getenv("PATH") then
  -- the host's limits (LUAI_MAXSTACK 1,000,000): the messages of lua5.4
  -- (this part passes under lua5.4 too)
  local function msg(f, ...)
    local ok, e = pcall(f, ...)
    assert(not ok)
    return (e:gsub("^[^:]*:%d+: ", ""))
  end
  assert(msg(table.unpack, {}, 1, 1e7) == "too many results to unpack")
  assert(msg(table.unpack, {}, math.mininteger, math.maxinteger) == "too many results to unpack")
  local big = string.rep("a", 1e6)
  assert(msg(string.byte, big, 1, -1) == "stack overflow (string slice too long)")
  assert(msg(utf8.codepoint, big, 1, -1) == "stack overflow (string slice too long)")
  -- string.unpack asks for room item by item: the stack fills up to its
  -- limit before the error, whose message still says why
  assert(msg(string.unpack, string.rep("b", 1e6), string.rep("\0", 1e6)) ==
         "stack overflow (too many results)")
  assert(table.pack(string.unpack(string.rep("b", 999000), string.rep("\0", 999000))).n == 999001)
  assert(msg(string.find, "a", string.rep("(", 33)) == "too many captures")
  -- the state works on after each
  assert(count(table.unpack(seq)) == N)
end
print("ok")
