-- run by tests/remote/run: an error ends the script with status 1.
local t = {}
print("before")
t.x.y = 1
