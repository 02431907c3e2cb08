-- io: console writes, handles, files.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

assert(io.write("") == io.stdout and io.stdout:write("") == io.stdout)
assert(io.type(io.stdout) == "file" and io.type(io.stdin) == "file" and io.type(io.stderr) == "file")
assert(io.type(42) == nil)
has(err(io.type), "bad argument #1 to ")
has(err(io.write, {}), "bad argument #1 to 'io.write' (string expected, got table)")
has(err(io.stdout.write, 1), "FILE* expected, got number")
assert(tostring(io.stdout):match("^file %(0x%x+%)$"))
local a, m = io.stdout:close()
assert(a == nil and m == "cannot close standard file")
assert(io.stdout:setvbuf("no") and io.stdout:flush() and io.flush())
has(err(io.stdout.setvbuf, io.stdout, "x"), "invalid option 'x'")
has(err(io.read, "x"), "bad argument #1 to 'io.read' (invalid format)")
assert(io.output() == io.stdout and io.input() == io.stdin)
has(err(io.output, {}), "FILE* expected, got table")
has(err(io.open, "x", "rw"), "bad argument #2 to 'io.open' (invalid mode)")
local e
a, m, e = io.open("/nonexist/x")
assert(a == nil and m == "/nonexist/x: No such file or directory" and e == 2)
has(err(io.lines, "/nonexist/x"), "cannot open file '/nonexist/x' (No such file or directory)")
has(err(io.input, "/nonexist/y"), "cannot open file '/nonexist/y'")

-- Files: every target reaches host files (libc on the host, semihosting
-- on a board), so a file that cannot be made is a failure, not a skip.
-- os.tmpname gives each run its own file (runs go on in parallel).
local name = os.tmpname()
local f = assert(io.open(name, "w"))
assert(io.type(f) == "file" and f:write("line1\n", 42, " ", 1.5, " ", -7, "\n") == f)
f:write("0x1Fp1 -3e2 .5 nan 12abc\n", "last")
assert(f:close() == true and io.type(f) == "closed file" and tostring(f) == "file (closed)")
has(err(f.write, f, "x"), "attempt to use a closed file")
has(err(io.close, f), "attempt to use a closed file")

f = assert(io.open(name))
assert(f:read() == "line1" and f:read("L") == "42 1.5 -7\n")
local x, y, z, w = f:read("n", "n", "n", "n")
assert(x == 62.0 and y == -300.0 and z == 0.5 and w == nil)
assert(f:read("n") == nil and f:read("l") == "nan 12abc")
assert(f:read(2) == "la" and f:read(0) == "" and f:read("a") == "st")
assert(f:read(0) == nil and f:read(1) == nil and f:read("l") == nil and f:read("a") == "")
assert(f:seek("set", 2) == 2 and f:read(3) == "ne1" and f:seek() == 5)
assert(f:seek("cur", -1) == 4 and f:read(1) == "1" and f:seek("end") == 45)
assert(f:seek("end", -4) == 41 and f:read("a") == "last")
a, m, e = f:seek("set", -1)
assert(a == nil and m == "Invalid argument" and e == 22)
has(err(f.seek, f, "bad"), "invalid option 'bad'")
has(err(f.read, f, "x"), "invalid format")
f:close()

local lines = {}
for l in io.lines(name) do lines[#lines + 1] = l end
assert(#lines == 4 and lines[4] == "last")
local s = ""
for c, l in io.lines(name, 1, "L") do s = s .. c .. "|" .. l end
assert(s == "l|ine1\n4|2 1.5 -7\n0|x1Fp1 -3e2 .5 nan 12abc\nl|ast")
f = io.open(name)
local it = f:lines("n")
assert(it() == nil) f:close()
has(err(it), "file is already closed")
has(err(function() for _ in io.lines(name, "x") do end end), "invalid format")

f = io.open(name, "a") f:write("APP") f:close()
f = io.open(name) assert(#f:read("a") == 48) f:close()
f = io.open(name, "r+") f:write("LINE")
assert(f:seek("set", 0) == 0 and f:read("l") == "LINE1")
f:seek("set", 2) f:write("xx") f:seek("set")
assert(f:read("l") == "LIxx1") f:close()

local g = io.output(name)
assert(g ~= io.stdout and io.write("via output\n", 3, "\n") == g)
io.close()
assert(io.type(g) == "closed file")
has(err(io.write, "x"), "default output file is closed")
io.output(io.stdout)
io.input(name)
assert(io.read("l") == "via output" and io.read("n") == 3 and io.read("l") == "")
assert(io.read("l") == nil)
io.input():close()
has(err(io.read), "default input file is closed")
has(err(io.lines), "attempt to use a closed file")
io.input(io.stdin)
do local h <close> = io.open(name) g = h end
assert(io.type(g) == "closed file")
assert(os.remove(name) == true and io.open(name) == nil)
-- io.tmpfile: read and write, gone when closed (on the boards too)
do
  local t = assert(io.tmpfile())
  assert(io.type(t) == "file")
  assert(t:write("tmp", 1, "\n") == t)
  assert(t:seek("set") == 0 and t:read("l") == "tmp1" and t:read("l") == nil)
  assert(t:close() == true and io.type(t) == "closed file")
end
print("ok")
