-- traceback through tail calls
local function c() error("in c") end
local function b() return c() end
local function a() return b() end
a()
