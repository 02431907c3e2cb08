--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb
-- hw.timer opened again: the old object is closed (its methods raise),
-- the new one runs at its own rate.
local hz = rt.hz()
local function wait(t) local c = rt.cycles() while rt.cycles() - c < t do end end
local a = hw.timer(0, 500)
local b = hw.timer(0, 2000)
assert(a:count() == 0)
wait(hz // 100)
assert(b:count() == 20 and a:count() == 0, b:count())
b:stop()
print("ok")
