-- C18: io.lines and file:lines keep their formats as upvalues of the
-- iterator; with many formats the library pushed them all (3 + n values)
-- without asking for stack room, writing past the end of the Lua stack
-- (a build with RTLUA_APICHECK stops there).  5.4.8 takes up to 250
-- formats and refuses more with "too many arguments".
local name = os.tmpname()
local w = assert(io.open(name, "w"))
for i = 1, 300 do w:write("line ", i, "\n") end
w:close()
local fmts = {}
for i = 1, 250 do fmts[i] = "l" end
-- file:lines with the most formats: each step reads 250 lines
local f = assert(io.open(name))
local it = f:lines(table.unpack(fmts))
collectgarbage()
local r = table.pack(it())
print(r.n, r[1], r[250])
r = table.pack(it())
print(r.n, r[1], r[50], r[51])
f:close()
-- io.lines with the most formats, from a coroutine's small stack
local co = coroutine.wrap(function ()
  local n = 0
  for a, b in io.lines(name, table.unpack(fmts)) do n = n + 1 end
  return n
end)
print(co())
-- one more is refused, cleanly
fmts[251] = "l"
f = assert(io.open(name))
print(pcall(f.lines, f, table.unpack(fmts)))
print(select(2, pcall(io.lines, name, table.unpack(fmts))):match("too many arguments") ~= nil)
f:close()
os.remove(name)
print("done")
