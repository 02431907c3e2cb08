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

-- A numeric loop's hidden index, replaced by a table: FORLOOP stepped the
-- number in the table (its address plus the step, still a table), and the
-- collector marked it (lua5.4 crashes here too).  In a float loop it put
-- the step's bits there.  The limit is infinite: a float index made of a
-- table's bits stays below it (but for a NaN, when a pointer's low 32 bits
-- are a float's in the 32-bit model: then the float loop ends at once).
local function index_of(level, want)
  for n = 1, 250 do
    local name = debug.getlocal(level + 1, n)
    if name == want then return n end
  end
end
for _, first in ipairs({1, 1.0}) do
  local seen = {}
  for i = first, 1 / 0 do
    local n = index_of(1, "i") - 3 -- the first of its three hidden ones
    local name, v = debug.getlocal(1, n)
    assert(name == "(for state)")
    seen[#seen + 1] = v
    if #seen == 2 then break end
    debug.setlocal(1, n, {})
  end
  if #seen == 2 or math.type(first) == "integer" then
    assert(type(seen[2]) == "number", type(seen[2]))
    assert(math.type(seen[2]) == math.type(first))
  end
  collectgarbage()
end
print("ok")
