-- an uncaught error: message and traceback on stderr, status 1
print("before")
local function inner() error("boom") end
local function outer() inner() end
outer()
print("not reached")
