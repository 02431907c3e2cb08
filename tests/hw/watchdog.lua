--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb
-- hw.watchdog: fed, the board runs on; a hung loop is reset, and the
-- next boot (the same script again) reports the watchdog as its cause.
local info = hw.info()
print("boot: " .. info.reset_cause)
if info.reset_cause == "watchdog" then print("ok") return end
assert(info.reset_cause == "power-on")
local w = hw.watchdog(50)
local function wait(ms) local c = rt.cycles() while rt.cycles() - c < rt.hz() * ms // 1000 do end end
for _ = 1, 10 do wait(30) w:feed() end
print("fed for 300 ms")
while true do end
