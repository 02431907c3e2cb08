-- examples/control_loop.lua — `make run`: a PID controller holding a
-- simulated plant at 1 kHz for 2 s, making garbage every iteration, while
-- the incremental collector runs in the loop's slack (rt.loop).  Under
-- QEMU's -icount the run, and so every figure printed, is deterministic.
--
-- The plant is a first-order lag (gain 2, time constant 50 ms) integrated
-- at the loop's period; the set point steps from 1.0 to 0.5 at 1 s, and a
-- load disturbance arrives at 1.5 s.
--
-- Optional arguments (bench/report runs the loop at other rates):
--   control_loop.lua [RATE [UTIL [SECONDS [trace]]]]
--   RATE     the loop's rate, "2kHz", "500Hz", "0.5ms" or a number of Hz
--            (default 1 kHz)
--   UTIL     the collector's share of each tick, "0.25" or "25%"
--            (rt.budget; default: the runtime's own setting)
--   SECONDS  how long the loop runs (default 2)
--   trace    after the summary, one line "@late T_MS LATE_US" an iteration
-- The set point and disturbance times scale with SECONDS.

local arg = arg or {}

local function parse_rate(a)
  if a == nil then return 1 end
  local v, unit = a:lower():match("^([%d.]+)%s*(%a*)$")
  v = tonumber(v)
  if v == nil or v <= 0 then error("bad rate '" .. a .. "'") end
  if unit == "ms" then return v end
  if unit == "khz" then return 1 / v end
  if unit == "hz" or unit == "" then return 1000 / v end
  error("bad rate '" .. a .. "'")
end

local function parse_util(a)
  if a == nil then return nil end
  local v, p = a:match("^([%d.]+)(%%?)$")
  v = tonumber(v)
  if v == nil then error("bad utilisation '" .. a .. "'") end
  return p == "%" and v / 100 or v
end

local PERIOD_MS = parse_rate(arg[1])
local UTIL = parse_util(arg[2])
local SECONDS = tonumber(arg[3] or 2) or error("bad seconds '" .. arg[3] .. "'")
local TRACE = arg[4] == "trace"
local N = math.floor(SECONDS * 1000 / PERIOD_MS + 0.5)
local DT = PERIOD_MS / 1000
local T_STEP, T_LOAD = SECONDS / 2, SECONDS * 3 / 4
local GAIN, TAU = 2.0, 0.05
local KP, KI, KD = 1.5, 30.0, 0.002
local U_MAX = 10.0
local LOG_LINES = 64 -- telemetry kept: a ring of the last lines

local y, integ, prev_err = 0.0, 0.0, 0.0
local k = 0
local log = {}
local worst_err = 0.0 -- largest |error| in the last 0.3 s of each phase

local lateness = TRACE and {} or nil

local function control(late)
  k = k + 1
  if lateness then lateness[k] = late end
  local t = k * DT
  local sp = t < T_STEP and 1.0 or 0.5
  local err = sp - y
  integ = integ + err * DT
  local u = KP * err + KI * integ + KD * (err - prev_err) / DT
  prev_err = err
  if u > U_MAX then u = U_MAX elseif u < -U_MAX then u = -U_MAX end
  local load = t >= T_LOAD and -0.2 or 0.0
  y = y + DT * (GAIN * (u + load) - y) / TAU
  -- telemetry: a fresh table and a formatted line every period (garbage)
  local rec = {t = t, sp = sp, y = y, u = u, err = err}
  log[k % LOG_LINES + 1] = string.format("t=%.3f sp=%.2f y=%.4f u=%+.3f",
                                         rec.t, rec.sp, rec.y, rec.u)
  if (t > T_STEP * 0.7 and t < T_STEP) or (t > T_LOAD + SECONDS / 10) then
    local e = math.abs(rec.err)
    if e > worst_err then worst_err = e end
  end
end

if UTIL then rt.budget(UTIL) end
collectgarbage("collect")
local before = rt.stats()
local r = rt.loop(PERIOD_MS, control, N)
local s = rt.stats()

print(string.format("control loop: %g Hz for %g s, clock %d Hz",
                    1000 / PERIOD_MS, SECONDS, rt.hz()))
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
if UTIL then
  print(string.format("collector utilisation: %g%%", rt.budget() * 100))
end
if lateness then
  for i = 1, #lateness do
    print(string.format("@late %.3f %.1f", i * PERIOD_MS, lateness[i]))
  end
end
