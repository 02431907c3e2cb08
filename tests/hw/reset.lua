--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb netduinoplus2 microbit
-- hw.reset: the board starts again, and the next boot (the same script
-- again) reports a software reset.
local cause = hw.info().reset_cause
print("boot: " .. cause)
if cause == "software" then print("ok") return end
assert(cause == "power-on")
hw.reset()
print("not reached")
