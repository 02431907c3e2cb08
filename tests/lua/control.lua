-- Control flow: if/elseif/else, while, repeat (scope of the condition),
-- break, nested loops, and short-circuit evaluation.
local function classify(n)
  if n < 0 then return "neg" elseif n == 0 then return "zero" elseif n < 10 then return "small" else return "big" end
end
assert(classify(-1) == "neg" and classify(0) == "zero" and classify(5) == "small" and classify(50) == "big")
if nil then error() end
if false then error() else assert(true) end
if 0 then else error("0 is true") end
if "" then else error("'' is true") end

local i, s = 0, 0
while i < 10 do i = i + 1; s = s + i end
assert(s == 55)
while false do error() end

-- repeat: the condition sees the body's locals
local n = 0
repeat local done = n >= 3; n = n + 1 until done
assert(n == 4)
repeat n = n + 1 until true
assert(n == 5)

-- break leaves the innermost loop only
local hits = 0
for a = 1, 5 do
  for b = 1, 5 do
    if b > a then break end
    hits = hits + 1
  end
end
assert(hits == 15)
i = 0
while true do i = i + 1; if i == 7 then break end end
assert(i == 7)
repeat break until error("not reached")

-- short circuit: the right side is evaluated only when needed
local calls = 0
local function bump(v) calls = calls + 1; return v end
local r = bump(false) and bump(true)
assert(r == false and calls == 1)
r = bump(1) or bump(2)
assert(r == 1 and calls == 2)
r = bump(nil) or bump(false) or bump("x")
assert(r == "x" and calls == 5)
assert((1 < 2 and "y" or "n") == "y" and (1 > 2 and "y" or "n") == "n")
local v = nil
assert(not (v and v.field))

-- conditions with comparisons of constants and registers
local k = 3
if k == 3 then k = 4 end
if 4 ~= k then error() end
if not (k >= 4) then error() end
if k > 100 or k < -100 then error() end

-- a long if chain and loops with many statements stay correct
local function chain(x)
  if x == 1 then return "a" elseif x == 2 then return "b" elseif x == 3 then return "c"
  elseif x == 4 then return "d" elseif x == 5 then return "e" end
  return "z"
end
local out = {}
for q = 0, 6 do out[#out + 1] = chain(q) end
assert(table.concat(out) == "zabcdez")

-- while with a complex condition
local a, b = 0, 10
while a < 5 and b > 5 or a == 0 do a = a + 1; b = b - 1 end
assert(a == 5 and b == 5)

-- nested functions inside loops
local fs = {}
i = 1
while i <= 3 do local j = i; fs[i] = function() return j end; i = i + 1 end
assert(fs[1]() == 1 and fs[3]() == 3)
print("ok")
