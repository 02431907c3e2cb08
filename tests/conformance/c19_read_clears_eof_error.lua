-- C19: every read of a file starts afresh, as liolib's g_read does with
-- clearerr: the end of the file met by one read does not end the next
-- one when the file has grown since, and a failed write (to a file opened
-- for reading) does not make the reads after it fail.  rtlua's host port
-- kept stdio's sticky end-of-file and error flags: the read after the
-- end returned nothing and the reads after the failed write returned
-- "Bad file descriptor".  Lua 5.4.8 and Debian's 5.4.4 agree.
local name = os.tmpname()
local w = assert(io.open(name, "w"))
local r = assert(io.open(name, "r"))
print(r:read("a") == "", r:read("l"), r:read(0), r:read(1), r:read("n"))
w:write("more\n12 tail"); w:flush()
print(r:read("l"), r:read("n"), r:read("a"))
print(r:read("l"), r:read("a"))
w:write("\nnext line\n"); w:flush()
print(r:read("L"), r:read("l"), r:read("l"))
-- an iterator of file:lines (which does not close the file) sees lines
-- written after it returned nil
local it = r:lines()
print(it())
w:write("late\n"); w:flush()
print(it(), it())
-- io.read from a default input file
io.input(r)
w:write("via io.read\n"); w:flush()
print(io.read("l"), io.read("l"))
w:write("7"); w:flush()
print(io.read("n"), io.read(1))
io.input(io.stdin)
w:close(); r:close()
-- a failed write on a file opened for reading
local f = io.open(name, "w"); f:write("abc\n", "def\n"); f:close()
f = io.open(name, "r")
local ok, msg = f:write("x")
print(ok, type(msg))
print(f:read(0))
print(f:read("l"))
print(f:write("y") == nil, f:read("L"), f:read("l"))
print(f:seek("set", 1), f:write("z") == nil, f:read("a"))
f:close(); os.remove(name)
