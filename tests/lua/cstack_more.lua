-- More recursion through C boundaries (issue 17's cases): each ends in a
-- clean error, with the outer levels' results intact.
local function r2() pcall(r2) return tostring(1.5) .. 2.5 end
assert(select(2, pcall(r2)) == "1.52.5")
local function r3() pcall(r3) return table.concat({1.5, 2.5}, ",") end
assert(select(2, pcall(r3)) == "1.5,2.5")
local function r4() pcall(r4) return string.find("abc", "(b)(c)") end
assert(select(4, pcall(r4)) == "b")
local function r5() pcall(r5) return load("x = ") end
local ok, f, e = pcall(r5)
assert(ok and f == nil and e:find("unexpected symbol", 1, true), e)
f = function(g) return g end
assert(load("f(function() f(function() f(function() end) end) end)"))
assert(coroutine.wrap(function()
  local x <close> = setmetatable({}, {__close = function() end})
  return 1
end)() == 1)
print("cstack_more ok")
