-- to-be-closed variables: order, error objects, break, return, coroutine.close
local function C(name) return setmetatable({}, {__close = function(_, e) print("close", name, e) end}) end
do local a <close> = C("a"); local b <close> = C("b"); print("body") end
print(pcall(function() local a <close> = C("c"); error("err", 0) end))
for i = 1, 3 do local x <close> = C("loop" .. i); if i == 2 then break end end
local function f() local x <close> = C("ret"); return "value" end
print(f())
local co = coroutine.create(function() local x <close> = C("co"); coroutine.yield() end)
coroutine.resume(co)
print(coroutine.close(co))
print(pcall(function() local x <close> = setmetatable({}, {__close = function() error("in close", 0) end}); error("orig", 0) end))
print(pcall(function() local x <close> = 42 end))
local K <const> = 10
print(K * 2)
