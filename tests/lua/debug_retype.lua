--! big
-- debug.setlocal may put any value in any register of a running Lua
-- function, temporaries included, so the interpreter must not trust the
-- types the compiler's code would leave there where a wrong type is
-- unsafe (lua5.4 crashes on the first case).
-- A table constructor's table, replaced while its items are evaluated:
-- SETLIST finds a number.
local function clobber()
  local n, v = debug.getlocal(2, 1)
  assert(n == "(temporary)" and (type(v) == "table" or v == 42))
  debug.setlocal(2, 1, 42)
  return 1
end
local ok, err = pcall(function () return {clobber(), clobber()} end)
assert(not ok and err:find("attempt to index a number value"), err)

-- A method name held in a register (its constant index is past 255),
-- replaced by a count hook just before SELF reads it.
local src = {"local o = {[(...)] = function () return 'called' end}",
             "local t = {"}
for i = 1, 300 do src[#src + 1] = ("'k%d',"):format(i) end
src[#src + 1] = "}"
src[#src + 1] = "return o:method()"
local f = assert(load(table.concat(src, "\n"), "=m"))
assert(f("method") == "called")
local hits = 0
debug.sethook(function ()
  for n = 1, 250 do
    local name, v = debug.getlocal(2, n)
    if not name then break end
    if v == "method" and name == "(temporary)" then
      debug.setlocal(2, n, {})
      hits = hits + 1
    end
  end
end, "", 1)
ok, err = pcall(f, "method")
debug.sethook()
assert(hits > 0)
assert(not ok and err == "m:304: attempt to call a nil value (method 'method')",
       err)
print("ok")
