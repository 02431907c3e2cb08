--! host
-- C07: loadfile(filename [, mode [, env]]) was missing from the base
-- library.  Lua 5.4.8 loads the file as a chunk named "@filename"
-- (text or binary, as mode allows; a first line starting with '#' is
-- skipped, keeping the line count), with env as its first upvalue when
-- given; nil as the file name reads standard input; on failure it
-- returns nil and the message.  Debian's lua5.4 (5.4.4) prints the
-- same.  Host only: the board has no os.tmpname or os.remove, and its
-- file errors carry no reason.
local name = os.tmpname()
local function write(s)
  local h = assert(io.open(name, "wb"))
  h:write(s)
  h:close()
end
-- file names are random: print them as NAME
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do
    if type(t[i]) == "string" then
      t[i] = t[i]:gsub(name:gsub("%p", "%%%0"), "NAME")
    end
    t[i] = tostring(t[i])
  end
  print(table.concat(t, "\t"))
end

write("return 42")
print(loadfile(name)())
-- the chunk name, and the arguments the chunk gets
write("local a, b = ... return a + b, debug.getinfo(1, 'S').source")
show(loadfile(name)(40, 2))
-- env is the chunk's _ENV
write("x = (x or 0) + 1 return x")
local env = {x = 10}
print(loadfile(name, "t", env)(), env.x, x)
-- an explicit nil env is an env: the chunk has no globals
print(type(loadfile(name, "bt", nil)))
show(pcall(loadfile(name, "bt", nil)))
-- modes
show(loadfile(name, "b"))
write(string.dump(function () return "binary" end))
print(loadfile(name)(), loadfile(name, "b")())
show(loadfile(name, "t"))
-- a first line starting with '#' is skipped, its line still counted
write("#!/usr/bin/env lua\nlocal x = 1\nerror('line 3')")
show(pcall(loadfile(name)))
write("# comment\n" .. string.dump(function () return "after #" end))
print(loadfile(name)())
-- syntax errors and missing files
write("return +")
show(loadfile(name))
os.remove(name)
show(loadfile(name))
-- nil reads standard input (empty here)
local f = loadfile(nil)
print(type(f), select('#', f()))
print(pcall(loadfile, {}))
