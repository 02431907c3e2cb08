-- run by tests/remote/run: Ctrl-C (SIGINT to the tool) interrupts it.
print("spinning")
local n = 0
while true do n = n + 1 end
