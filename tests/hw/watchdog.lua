--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb
-- hw.watchdog: fed, the board runs on; a hung loop is reset after the
-- watchdog's 50 ms (it prints the milliseconds since the last feed as
-- they pass: tests/hw/run wants 49 or 50 last), and the next boot (the
-- same script again) reports the watchdog as its cause.
local info = hw.info()
print("boot: " .. info.reset_cause)
if info.reset_cause == "watchdog" then print("ok") return end
assert(info.reset_cause == "power-on")
local w = hw.watchdog(50)
local ms1 = rt.hz() // 1000
local function wait(ms) local c = rt.cycles() while rt.cycles() - c < ms1 * ms do end end
local fed
for _ = 1, 10 do wait(30) w:feed() fed = rt.cycles() end
print("fed for 300 ms")
local last = -1
while true do
  local ms = (rt.cycles() - fed) // ms1
  if ms ~= last then last = ms print("unfed " .. ms) end
end
