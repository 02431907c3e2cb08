-- C20: file:flush() writes out what the file's buffer holds, and
-- file:setvbuf(mode [, size]) sets its buffering ("no", "full",
-- "line"); both return true, as io.flush() does, on opened files and on
-- the standard ones.  rtlua accepted both and did nothing for opened
-- files, whose writes stayed in the host's stdio buffer.  Lua 5.4.8 and
-- Debian's 5.4.4 agree.
local name = os.tmpname()
local f = assert(io.open(name, "w"))
local r = assert(io.open(name, "r"))
local function seen() r:seek("set") return r:read("a") end
print(f:write("abc") == f, f:flush())
print(seen())
print(f:setvbuf("line"))
f:write("d\n")
print(#seen() - 3)
print(f:setvbuf("no"))
f:write("e")
print(seen())
print(f:setvbuf("full", 4096))
f:write("f")
f:flush()
print(seen())
print(io.output(f) == f, io.write("g") == f, io.flush())
print(seen())
io.output(io.stdout)
f:close()
print(io.stdout:setvbuf("no"), io.stdout:flush(), io.flush())
io.write("unbuffered "); io.stdout:setvbuf("full"); print("full")
print(io.stdout:setvbuf("line", 100), io.stderr:setvbuf("no"))
print(pcall(f.flush, f))
print(pcall(f.setvbuf, f, "no"))
print(pcall(r.setvbuf, r, "sometimes"))
print(pcall(io.stdout.setvbuf, io.stdout))
r:close(); os.remove(name)
