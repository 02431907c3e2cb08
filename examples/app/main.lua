-- examples/app: an application of three modules, made to run from a flash
-- image (docs/images.md):
--
--   make run APP=examples/app                  the firmware with it linked in
--   qemu/run --app examples/app mps2-an385     the image loaded apart
--
-- main.lua (this file), the controller: a PI loop at 1 kHz (rt.loop)
-- holding a simulated heater at its set point; filter.lua cleans the
-- noisy sensor readings; telemetry.lua keeps the run's figures and
-- reports them.  Optional argument: the seconds to run (default 1).
local filter = require "filter"
local telemetry = require "telemetry"

local SECONDS = tonumber(arg and arg[1]) or 1
local PERIOD_MS = 1
local N = math.floor(SECONDS * 1000 / PERIOD_MS + 0.5)
local DT = PERIOD_MS / 1000

-- The plant: a heater, dT/dt = (GAIN * u - (T - AMBIENT)) / TAU.
local AMBIENT, GAIN, TAU = 20.0, 80.0, 0.1
local temp = AMBIENT
local KP, KI, U_MAX = 0.1, 3.0, 1.0

-- The sensor: the temperature plus deterministic noise and rare spikes
-- (a linear congruential generator small enough for 32-bit integers, so
-- that every run, in either number model, reads the same).
local seed = 12345
local function sensor()
  seed = (seed * 75 + 74) % 65537
  local noise = (seed % 1000) / 1000 - 0.5
  if seed % 97 == 0 then noise = noise * 40 end -- a spike
  return temp + noise
end

local smooth = filter.new{alpha = 0.2}
local stats = telemetry.new{every = 250, period_ms = PERIOD_MS}
local integ, k = 0.0, 0

local function control(late)
  k = k + 1
  local t = k * DT
  local setpoint = t < SECONDS / 2 and 60.0 or 45.0
  local measured = smooth(sensor())
  local err = setpoint - measured
  local u = KP * err + KI * integ
  if u > U_MAX then
    u = U_MAX
  elseif u < 0 then
    u = 0
  else
    integ = integ + err * DT -- no wind-up while saturated
  end
  temp = temp + DT * (GAIN * u - (temp - AMBIENT)) / TAU
  stats:record(t, setpoint, measured, u, late)
end

collectgarbage("collect")
local result = rt.loop(PERIOD_MS, control, N)
stats:finish(result)
