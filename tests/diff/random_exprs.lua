-- Random expressions from a fixed-seed generator (the same in every
-- implementation): each is compiled with load and run; the result or the
-- error message is printed.  Covers constant folding and runtime paths.
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
local atoms = {"0", "1", "-1", "2", "3", "7", "-7", "0.5", "-0.0", "1e308", "2^53", "math.maxinteger",
  "math.mininteger", "'10'", "'0x10'", "'abc'", "' 3 '", "1/0", "-1/0", "x", "y", "s", "f", "t", "nil", "true",
  "0x7fffffff", "255", "1.5", "-2.5", "63", "64", "'1e2'"}
local binops = {"+", "-", "*", "/", "//", "%", "^", "&", "|", "~", "<<", ">>", "..", "==", "~=", "<", "<=", ">", ">=", "and", "or"}
local unops = {"-", "~", "not ", "#"}
local function expr(d)
  local r = rnd(10)
  if d <= 0 or r <= 3 then return atoms[rnd(#atoms)] end
  if r <= 4 then return unops[rnd(#unops)] .. "(" .. expr(d - 1) .. ")" end
  return "(" .. expr(d - 1) .. " " .. binops[rnd(#binops)] .. " " .. expr(d - 1) .. ")"
end
local env = {x = 5, y = 2.25, s = "12", f = 0.1, t = {}, math = math}
local function show(v)
  if type(v) == "table" then return "table" end
  if math.type(v) == "float" then return string.format("%.14g(f)", v) end
  return tostring(v)
end
for i = 1, 400 do
  local src = expr(3)
  local fn, err = load("return " .. src, "=e", "t", env)
  if not fn then print(i, src, "COMPILE", err)
  else
    local ok, v = pcall(fn)
    print(i, src, ok and show(v) or ("ERR " .. tostring(v)))
  end
end
