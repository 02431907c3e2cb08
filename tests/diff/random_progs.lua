-- Random small programs from a fixed-seed generator: locals, assignments,
-- nested ifs and loops, closures over loop variables, tables, varargs,
-- multiple results.  Each is compiled and run; its final state is printed.
local seed = 4242
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
local vars = {"a", "b", "c", "d"}
local function var() return vars[rnd(#vars)] end
local function atom()
  local r = rnd(6)
  if r == 1 then return tostring(rnd(20) - 5) elseif r == 2 then return var()
  elseif r == 3 then return "t[" .. rnd(4) .. "]" elseif r == 4 then return "g(" .. var() .. ")"
  elseif r == 5 then return "(#t)" else return var() .. " // 1" end
end
local function expr(d)
  if d == 0 or rnd(3) == 1 then return atom() end
  local ops = {"+", "-", "*", "%", "//", "|", "&", "~", "<<"}
  local op = ops[rnd(#ops)]
  if op == "%" or op == "//" then return "(" .. expr(d - 1) .. " " .. op .. " (1 + (" .. expr(d - 1) .. ") % 5 ^ 0 // 1 | 1))" end
  if op == "<<" then return "(" .. expr(d - 1) .. " << (" .. expr(d - 1) .. " & 7))" end
  return "(" .. expr(d - 1) .. " " .. op .. " " .. expr(d - 1) .. ")"
end
local function cond() local cmp = {"<", "<=", "==", "~=", ">", ">="} return expr(1) .. " " .. cmp[rnd(#cmp)] .. " " .. expr(1) end
local stmt
local function block(d, n)
  local out = {}
  for _ = 1, n do out[#out + 1] = stmt(d) end
  return table.concat(out, " ")
end
function stmt(d)
  local r = rnd(d > 0 and 10 or 4)
  if r <= 2 then return var() .. " = " .. expr(2)
  elseif r == 3 then return "t[" .. rnd(4) .. "] = " .. expr(2)
  elseif r == 4 then return var() .. ", " .. var() .. " = " .. expr(1) .. ", " .. expr(1)
  elseif r == 5 then return "if " .. cond() .. " then " .. block(d - 1, 2) .. " else " .. block(d - 1, 1) .. " end"
  elseif r == 6 then return "for i = " .. rnd(3) .. ", " .. rnd(5) .. " do " .. block(d - 1, 2) .. " fs[#fs + 1] = function() return i + " .. var() .. " end end"
  elseif r == 7 then return "do local n = 0 while n < " .. rnd(4) .. " do n = n + 1 " .. block(d - 1, 2) .. " end end"
  elseif r == 8 then return "do local " .. var() .. " = " .. expr(1) .. " " .. block(d - 1, 2) .. " end"
  elseif r == 9 then return var() .. " = select(" .. rnd(3) .. ", m(" .. expr(1) .. ", " .. expr(1) .. "))"
  else return "for k, v in ipairs(t) do " .. var() .. " = v + k end" end
end
local prelude = "local a, b, c, d = 1, 2, 3, 4 local t = {5, 6, 7, 8} local fs = {} " ..
  "local function g(x) return x * 2 - 1 end local function m(...) return ..., select('#', ...) end "
local finale = " local s = 0 for _, f in ipairs(fs) do s = s + f() end return a, b, c, d, t[1], t[2], t[3], t[4], #fs, s"
for i = 1, 300 do
  local src = prelude .. block(4, 4) .. finale
  local fn, err = load(src, "=p")
  if not fn then print(i, "COMPILE", err)
  else
    local res = table.pack(pcall(fn))
    for k = 1, res.n do res[k] = tostring(res[k]) end
    print(i, table.concat(res, " ", 1, res.n))
  end
end
