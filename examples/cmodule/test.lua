-- examples/cmodule/test.lua: the example module on the host or a board
-- (make USER_C_MODULES=examples/cmodule); prints "ringbuf ok".
local ringbuf = require "ringbuf"
local r = ringbuf.new(3)
assert(#r == 0 and r:pop() == nil)
for i = 1, 5 do r:push(i) end -- 1 and 2 dropped
assert(#r == 3, #r)
assert(r:sum() == 12 and r:mean() == 4)
assert(tostring(r) == "ringbuf(3/3)", tostring(r))
assert(r:pop() == 3 and #r == 2)
local ok, err = pcall(ringbuf.new, 0)
assert(not ok and err:find("capacity out of range"), err)
ok, err = pcall(r.push, {}, 1)
assert(not ok and err:find("ringbuf expected"), err)
print("ringbuf ok")
