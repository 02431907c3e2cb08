-- tests/dump/undumped.lua SCRIPT [args]: run SCRIPT from a binary chunk.
-- The script is compiled (as loadfile would), dumped with its debug information,
-- loaded back in mode "b" and run with the same arg table and ..., so
-- its output must be what running it directly prints (the runner
-- compares).  Dumping the loaded function again must give the same
-- bytes, and so must a stripped dump of either; a stripped chunk must
-- load too.
local script = assert(arg[1], "usage: undumped.lua SCRIPT [args]")
local file = assert(io.open(script, "rb"))
local f = assert(load(file:read("a"), "@" .. script, "t"))
file:close()
local bin = string.dump(f)
local g = assert(load(bin, "=(undumped)", "b"))
assert(string.dump(g) == bin, "dump of the loaded function differs")
local stripped = string.dump(f, true)
assert(string.dump(g, true) == stripped, "stripped dumps differ")
local h = assert(load(stripped, "=(stripped)", "b"))
assert(string.dump(h, true) == stripped, "dump of a stripped function differs")
assert(#stripped < #bin, "stripping saved nothing")
-- the script sees the arguments as if run directly
local n = #arg
local shifted = {[-1] = arg[-1], [0] = script}
for i = 2, n do shifted[i - 1] = arg[i] end
arg = shifted
return g(table.unpack(shifted, 1, n - 1))
