--! medium
-- Functions: parameters, multiple results and their truncation, varargs,
-- select, table.pack/unpack, methods, recursion and proper tail calls.
local function f3() return 1, 2, 3 end
local function none() end
local function id(...) return ... end
assert(select("#", f3()) == 3 and select("#", (f3())) == 1 and select("#", none()) == 0)
assert(select("#", f3(), f3()) == 4 and select("#", id()) == 0)
assert(select("#", nil, nil) == 2 and select("#", id(nil, nil, nil)) == 3)
local t = {f3(), f3()}
assert(#t == 4)
t = {f3(), (f3())}
assert(#t == 2)

-- missing parameters are nil, extra ones are dropped
local function two(a, b) return a, b end
local a, b = two(1)
assert(a == 1 and b == nil)
a, b = two(1, 2, 3)
assert(a == 1 and b == 2)

-- varargs
local function va(x, ...)
  local n = select("#", ...)
  local first = ...
  return x, n, first, {...}
end
local x, n, first, rest = va(1, 2, 3, nil)
assert(x == 1 and n == 3 and first == 2 and rest[2] == 3)
x, n = va()
assert(x == nil and n == 0)
assert(select(2, "a", "b", "c") == "b" and select(-1, "a", "b", "c") == "c")
assert(select("#", select(2, "a", "b", "c")) == 2 and select(4, 1, 2, 3) == nil)
local function packn(...) return table.pack(...).n end
assert(packn(nil, nil) == 2 and packn() == 0)
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
assert(sum(1, 2, 3, 4) == 10 and sum() == 0)
-- many arguments
local many = {}
for i = 1, 200 do many[i] = i end
assert(sum(table.unpack(many)) == 20100 and select("#", table.unpack(many)) == 200)

-- methods
local obj = {v = 5}
function obj.get(self) return self.v end
function obj:add(d) self.v = self.v + d; return self end
assert(obj:add(2):add(3):get() == 10)
local str = {s = {}}
function str.s.deep(v) return v end
assert(str.s.deep(4) == 4)

-- recursion
local function fact(k) if k <= 1 then return 1 end return k * fact(k - 1) end
assert(fact(10) == 3628800)
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
assert(fib(15) == 610)

-- proper tail calls: a long chain does not grow the stack
local function loop(k, acc) if k == 0 then return acc end return loop(k - 1, acc + 1) end
assert(loop(300000, 0) == 300000)
local even, odd
function even(k) if k == 0 then return true end return odd(k - 1) end
function odd(k) if k == 0 then return false end return even(k - 1) end
assert(even(100001) == false)
-- tail call of a vararg function and through __call
local function vtail(k, ...) if k == 0 then return select("#", ...) end return vtail(k - 1, ...) end
assert(vtail(100000, 1, 2, 3) == 3)
local callable = setmetatable({}, {__call = function(self, k) return k end})
local function tcall(k) return callable(k) end
assert(tcall(7) == 7)
-- tail-called C function
local function tc(s) return string.rep(s, 2) end
assert(tc("ab") == "abab")

-- return with parentheses truncates
local function paren() return (f3()) end
assert(select("#", paren()) == 1)

-- functions as values, passed and returned
local function compose(f, g) return function(...) return f(g(...)) end end
local inc = function(v) return v + 1 end
assert(compose(inc, inc)(1) == 3)

-- string and table call sugar
local function arg1(v) return v end
assert(arg1"s" == "s" and arg1{1}[1] == 1 and arg1[[long]] == "long")
print("ok")
