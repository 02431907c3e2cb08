-- tests/image/app: a program of several modules run from source and from
-- its flash image by tests/image/run, whose outputs must be the same:
-- require's results and package.loaded, source names and lines from
-- debug.getinfo and in errors and tracebacks, strings made at run time
-- equal to the image's, a module that fails to load, a submodule
-- (sensors/init.lua and sensors/adc.lua).
print("main", ...)
print("arg[0]", arg and arg[0])
local info = debug.getinfo(1, "Sl")
print("main source", info.source, info.short_src, info.currentline)

local util, where = require "util"
print("util loaded from", where, package.loaded.util == util)
print("again", require("util") == util)
print("util.add", util.add(2, 3), util.VERSION)

local sensors = require "sensors"
print("sensors", sensors.name, sensors.read(7))
print("sensors.adc", package.loaded["sensors.adc"] == sensors.adc)

-- a run-time string equal to a constant of another module
local key = ("ver" .. "sion"):upper():lower()
print("interned", util.lookup[key], util.lookup.version)

-- errors from inside a module, with their positions
print(pcall(util.fail, "bad input"))
print(select(2, xpcall(util.deep, debug.traceback, 3)):gsub("\n%s*%[C%]: in %?", ""))
local ok, err = pcall(require, "broken")
print("broken", ok, (err:gsub("\t", " ")))
for _, f in ipairs{util.add, util.fail, sensors.read} do
  local i = debug.getinfo(f, "S")
  print("defined", i.short_src, i.linedefined, i.lastlinedefined, i.what)
end
print(string.format("%q", util.long))
error("the end, " .. util.VERSION)
