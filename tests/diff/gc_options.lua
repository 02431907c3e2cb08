-- collectgarbage's options and what each returns, as lua5.4 (the values
-- that depend on neither the allocator nor the collector's defaults).
-- The standalone interpreter starts in generational mode (lua.c asks for
-- it); rtlua's collector stays incremental in either mode and only
-- reports the mode asked for last.
print(collectgarbage("incremental"), collectgarbage("incremental"))
print(collectgarbage("generational"), collectgarbage("generational", 20, 100))
print(collectgarbage("incremental", 0, 0, 0), collectgarbage("generational"))
print(collectgarbage("incremental"))
-- pause and step multiplier: kept as 5.4 keeps them (a quarter of the
-- value in a byte: multiples of 4, from 0 to 1020), the previous value
-- returned; 0 sets 0 here, while "incremental" takes 0 as "keep"
collectgarbage("setpause", 200)
print(collectgarbage("setpause", 150), collectgarbage("setpause", 200))
print(collectgarbage("setpause", 1001), collectgarbage("setpause", 0))
print(collectgarbage("setpause", 2000), collectgarbage("setpause", -4))
print(collectgarbage("setpause", 3), collectgarbage("setpause", 200))
collectgarbage("setstepmul", 100)
print(collectgarbage("setstepmul", 150), collectgarbage("setstepmul", 0))
print(collectgarbage("setstepmul", 1023), collectgarbage("setstepmul", 100))
print(collectgarbage("incremental", 300, 400, 10))
print(collectgarbage("setpause", 200), collectgarbage("setstepmul", 100))
print(collectgarbage("incremental", 0, 0, 0))
print(collectgarbage("setpause", 200), collectgarbage("setstepmul", 100))
print(collectgarbage("incremental", 220), collectgarbage("setpause"), collectgarbage("setpause", 200))
-- stop, restart, collect: 0; isrunning a boolean; count a float (KiB)
print(collectgarbage("stop"), collectgarbage("isrunning"))
print(collectgarbage("restart"), collectgarbage("isrunning"))
print(collectgarbage("collect"), collectgarbage(), math.type(collectgarbage("count")))
print(collectgarbage("count") > 0, select("#", collectgarbage("count")))
-- step: a negative size does nothing; a size past the heap ends the
-- cycle (true), also while the collector is stopped
print(collectgarbage("step", -5))
print(collectgarbage("step", 1 << 20))
collectgarbage("stop")
print(collectgarbage("step", 1 << 20), collectgarbage("isrunning"))
collectgarbage("restart")
-- a finalizer may not drive the collector: every option gives fail
setmetatable({}, {__gc = function ()
  print("in __gc", collectgarbage("count"), collectgarbage("step"),
        collectgarbage("isrunning"), collectgarbage("incremental"),
        collectgarbage("setpause", 100), collectgarbage())
end})
collectgarbage()
print(collectgarbage("isrunning"), collectgarbage("setpause", 200))
-- bad arguments
print(pcall(collectgarbage, "bogus"))
print(pcall(collectgarbage, "step", "x"))
print(pcall(collectgarbage, "setpause", 1.5))
print(pcall(collectgarbage, "incremental", {}))
print(pcall(collectgarbage, 42))
