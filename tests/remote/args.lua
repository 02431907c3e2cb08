-- run by tests/remote/run through rtlua-remote: the arguments arrive as
-- `...` and in `arg`, output goes to stdout and stderr in order.
local n = select("#", ...)
print("args", n, ...)
print("arg0", arg[0], #arg)
io.stderr:write("to stderr\n")
io.write("no newline")
io.write(" then one\n")
print(string.rep("x", 300))
