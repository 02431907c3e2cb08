--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb netduinoplus2
-- hw.uart on a loopback (tests/hw/run connects the board's second serial
-- port to a UDP socket that sends to itself): what is written comes back,
-- announced by one event, and a flood beyond the receive ring is counted
-- as overruns.
local info = hw.info()
local hz, u = rt.hz()
local got, events = "", 0
u = hw.uart(info.uarts[1], 115200, function(n)
  events = events + 1
  assert(n > 0)
  got = got .. u:read()
end)
assert(u:write("hello, loopback") == 15)
local c = rt.cycles()
while #got < 15 and rt.cycles() - c < 3 * hz do rt.poll() end
assert(got == "hello, loopback", got)
assert(events >= 1 and u:any() == 0 and u:read() == nil)
assert(u:read(0) == "")
u:close()
assert(not pcall(u.write, u, "x"))
-- no handler: bytes wait for read; 100 at once overflow the 64-byte ring
u = hw.uart(info.uarts[1], 115200)
u:write(string.rep("x", 100))
c = rt.cycles()
while u:overruns() + u:any() < 100 and rt.cycles() - c < 3 * hz do end
assert(u:any() == 64 and u:overruns() == 36, u:any() .. " " .. u:overruns())
assert(u:read(10) == string.rep("x", 10) and u:any() == 54)
u:close()
print("ok")
