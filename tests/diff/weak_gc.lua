-- weak tables and finalizers with deterministic output
local function full() collectgarbage(); collectgarbage() end
local wk = setmetatable({}, {__mode = "k"})
local wv = setmetatable({}, {__mode = "v"})
local keep = {}
wk[keep] = 1; wk[{}] = 2; wv[1] = keep; wv[2] = {}; wv[3] = "str"
full()
local n = 0
for _ in pairs(wk) do n = n + 1 end
print("weak keys left", n, "weak values", wv[1] == keep, wv[2], wv[3])
for i = 1, 3 do setmetatable({}, {__gc = function() print("gc", i) end}) end
full()
print(collectgarbage("collect"), type(collectgarbage("count")), collectgarbage("isrunning"))
