-- tests/cmod/test.lua: the modules of tests/cmod (strbuf, handle, scratch,
-- stream), loaded by require as a host's .so or linked into a build
-- (USER_C_MODULES).  arg[1] is a file name the script may write ("-"
-- for none: on a board, no stdio behind the handles).  Prints one
-- "PASS cmod.<name>" line per part; an error stops the script.
local tmp = arg and arg[1] ~= "-" and arg[1] or nil

local function pass(name) print("PASS cmod." .. name) end
local function fails(pat, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "no error")
  assert(tostring(err):find(pat, 1, true), err)
end

-- strbuf: luaL_Buffer far past its inline storage
local sb = require "strbuf"
local bufsize, bufbytes, regidx, intsize = sb.config()
assert(bufsize > 0 and bufbytes > bufsize and regidx < 0 and intsize >= 4)
assert(sb.join(", ", 1, "two", true, nil) == "1, two, true, nil")
local parts = {}
for i = 1, 2000 do parts[i] = i end
local joined = sb.join("-", table.unpack(parts, 1, 200))
assert(#joined == #table.concat(parts, "-", 1, 200) and
       joined == table.concat(parts, "-", 1, 200))
assert(sb.rep("ab", 0) == "" and sb.rep("xyz", 3) == "xyzxyzxyz")
local big = sb.rep("0123456789", 10000)
assert(#big == 100000 and big == string.rep("0123456789", 10000))
local hex = sb.hex(string.rep("A", 40))
assert(#hex == 40 * 3 - 1 and hex:sub(1, 6) == "41 41 ", hex)
assert(select(2, hex:gsub("\n", "")) == 2, hex)
assert(sb.subst("a.b.c", ".", "::") == "a::b::c")
local doc = {name = "x\"y", list = parts, nested = {{a = true}, {b = false}},
             ctl = "\1\n"}
local json = sb.encode(doc)
assert(json:sub(1, 14) == '{"ctl":"\\u0001', json:sub(1, 20))
assert(json:find('"name":"x\\"y"', 1, true), json:sub(-40))
assert(json:find('"nested":[{"a":true},{"b":false}]', 1, true))
assert(#json > 8000 and json:find('1999,2000]', 1, true))
fails("cannot encode a function", sb.encode, {print})
assert(sb.count() == 1 and sb.count() == 2)
local ref = sb.keep("kept " .. big:sub(1, 5))
collectgarbage()
assert(sb.fetch(ref) == "kept 01234")
pass("strbuf")

-- handle: userdata with __gc, __close, __index, user values
local handle = require "handle"
local o0, c0, bc0, bg0 = handle.stats()
do
  local h <close> = handle.open("scoped")
  assert(h:isopen() and h:name() == "scoped")
  assert(tostring(h) == "handle scoped (open)")
  h:attach({value = 42})
  assert(h:attached().value == 42)
end
local o, c, bc, bg = handle.stats()
assert(o == o0 + 1 and c == c0 + 1 and bc == bc0 + 1 and bg == bg0)
local ok = pcall(function()
  local h <close> = handle.open("err")
  error("boom")
end)
assert(not ok and select(3, handle.stats()) == bc0 + 2)
local h = handle.open("explicit")
assert(h:close() == true and h:close() == false and not h:isopen())
fails("handle 'explicit' is closed", h.name, h)
assert(tostring(h) == "handle explicit (closed)")
fails("handle.Handle expected, got table", h.name, {})
fails("name too long", handle.open, string.rep("n", 40))
for i = 1, 100 do handle.open("g" .. i):attach(i) end
collectgarbage()
collectgarbage()
o, c, bc, bg = handle.stats()
assert(o == o0 + 103 and bg == bg0 + 100 and c == c0 + 103, bg)
pass("handle")

-- stream: io's handles seen through luaL_Stream, and handles made here
local stream = require "stream"
assert(stream.state(io.stdout) == "open" and stream.state(io.stderr) == "open")
fails("FILE* expected", stream.state, {})
local s = stream.new("mine")
assert(io.type(s) == "file" and tostring(s):find("^file %("))
assert(stream.state(s) == "open")
fails("made by a C module", s.read, s)
fails("made by a C module", io.input, s)
local n0 = stream.closes()
assert(s:close() == true and stream.closes() == n0 + 1)
assert(io.type(s) == "closed file" and tostring(s) == "file (closed)")
assert(stream.state(s) == "closed")
fails("attempt to use a closed file", s.close, s)
do local t <close> = stream.new("scoped") end
assert(stream.closes() == n0 + 2)
assert(io.close(stream.new()) == true and stream.closes() == n0 + 3)
for _ = 1, 10 do stream.new("gc") end
collectgarbage()
collectgarbage()
assert(stream.closes() == n0 + 13, stream.closes())
assert(io.close(io.stdout) == nil) -- a standard file stays open
assert(stream.state(io.stdout) == "open")
if tmp then
  assert(stream.fileno(io.stdout) == 1 and stream.fileno(io.stderr) == 2)
  local f = assert(io.open(tmp, "w"))
  assert(stream.state(f) == "open" and stream.fileno(f) > 2)
  assert(stream.put(f, "from C ") == true and stream.flush(f) == true)
  f:write("and from Lua")
  f:close()
  assert(stream.state(f) == "closed")
  fails("attempt to use a closed file", stream.put, f, "x")
  f = assert(io.open(tmp, "r"))
  assert(f:read("a") == "from C and from Lua")
  f:close()
  os.remove(tmp)
  fails("not a stdio stream", stream.put, stream.new(), "x")
end
pass("stream")

-- scratch: a module's own memory from malloc (on a board, the arena's)
local scratch = require "scratch"
local b = scratch.new()
for i = 1, 1000 do b:add(i):add(",") end
assert(b:result() == table.concat(parts, ",", 1, 1000) .. ",")
assert(b:size() >= #b:result() and b:size() < 2 * #b:result() + 16)
assert(scratch.zeroed(5000) == true)
assert(scratch.try(1000) == true)
if not tmp then -- a board: the blocks are the arena's, and counted
  local ok, why = scratch.try(math.maxinteger)
  assert(ok == nil and why == "out of memory", why)
  collectgarbage()
  local before = collectgarbage("count") * 1024
  local big = scratch.new():add(string.rep("y", 100000))
  local grown = collectgarbage("count") * 1024 - before
  assert(grown >= 100000 and grown < 300000, grown)
  big = nil
  collectgarbage()
  local left = collectgarbage("count") * 1024 - before
  assert(left < 1000, left)
end
b = nil
collectgarbage()
pass("scratch")
