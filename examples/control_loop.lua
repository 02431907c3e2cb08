-- examples/control_loop.lua — `make run`: a PID controller holding a
-- simulated plant at 1 kHz for 2 s, making garbage every iteration, while
-- the incremental collector runs in the loop's slack (rt.loop).  Under
-- QEMU's -icount the run, and so every figure printed, is deterministic.
--
-- The plant is a first-order lag (gain 2, time constant 50 ms) integrated
-- at the loop's period; the set point steps from 1.0 to 0.5 at 1 s, and a
-- load disturbance arrives at 1.5 s.

local PERIOD_MS = 1
local SECONDS = 2
local N = SECONDS * 1000 // PERIOD_MS
local DT = PERIOD_MS / 1000
local GAIN, TAU = 2.0, 0.05
local KP, KI, KD = 1.5, 30.0, 0.002
local U_MAX = 10.0
local LOG_LINES = 64 -- telemetry kept: a ring of the last lines

local y, integ, prev_err = 0.0, 0.0, 0.0
local k = 0
local log = {}
local worst_err = 0.0 -- largest |error| in the last 0.3 s of each phase

local function control()
  k = k + 1
  local t = k * DT
  local sp = t < 1.0 and 1.0 or 0.5
  local err = sp - y
  integ = integ + err * DT
  local u = KP * err + KI * integ + KD * (err - prev_err) / DT
  prev_err = err
  if u > U_MAX then u = U_MAX elseif u < -U_MAX then u = -U_MAX end
  local load = t >= 1.5 and -0.2 or 0.0
  y = y + DT * (GAIN * (u + load) - y) / TAU
  -- telemetry: a fresh table and a formatted line every period (garbage)
  local rec = {t = t, sp = sp, y = y, u = u, err = err}
  log[k % LOG_LINES + 1] = string.format("t=%.3f sp=%.2f y=%.4f u=%+.3f",
                                         rec.t, rec.sp, rec.y, rec.u)
  if (t > 0.7 and t < 1.0) or (t > 1.7) then
    local e = math.abs(rec.err)
    if e > worst_err then worst_err = e end
  end
end

collectgarbage("collect")
local before = rt.stats()
local r = rt.loop(PERIOD_MS, control, N)
local s = rt.stats()

print(string.format("control loop: %d Hz for %d s, clock %d Hz",
                    1000 // PERIOD_MS, SECONDS, rt.hz()))
print("last telemetry: " .. log[k % LOG_LINES + 1])
print(string.format("settled error: %.4f (worst |sp - y| once settled)",
                    worst_err))
print(string.format("iterations: %d", r.iterations))
print(string.format("deadline misses: %d", r.misses))
print(string.format("worst lateness: %.1f us", r.worst_late_us))
print(string.format("worst GC step: %.1f us (%d cycles)", s.worst_step_us,
                    s.worst_step_cycles))
print(string.format("GC steps: %d, cycles completed: %d, emergencies: %d",
                    s.steps - before.steps,
                    s.cycles_completed - before.cycles_completed,
                    s.emergencies))
print(string.format("arena in use: %d / %d bytes", s.in_use, s.arena))
