-- examples/closed_loop.lua — a control loop that touches the world: every
-- millisecond (rt.loop) it reads an ADC channel, a PI controller turns
-- the reading into a duty cycle, and the loop drives a pin as a PWM output
-- in software: a period of PWM_TICKS iterations, the pin on for the first
-- duty x PWM_TICKS of them.  Telemetry makes garbage every iteration; the
-- incremental collector takes it in the loop's slack.
--
-- The board must have an ADC and a pin: on lm3s6965evb (whose QEMU model
-- has both) the sensor is ADC channel 0 and the actuator the user LED, PF0.
-- Under QEMU nothing outside moves the ADC (it returns 0x200 plus noise),
-- so the loop's figures are its timing and its output: every deadline met,
-- and the pin, read back through its data register each iteration,
-- having followed the commanded duty tick for tick.  On the board, wire
-- the sensor to ADC0 and the actuator to PF0, or change SENSOR and
-- ACTUATOR below.
--
--   closed_loop.lua [SECONDS [SETPOINT]]     (defaults: 2, 516)

local arg = arg or {}
local SENSOR, ACTUATOR = 0, "led"
local SECONDS = tonumber(arg[1] or 2) or error("bad seconds '" .. arg[1] .. "'")
local SETPOINT = tonumber(arg[2] or 516) or error("bad set point '" .. arg[2] .. "'")
local PERIOD_MS = 1
local N = math.floor(SECONDS * 1000 / PERIOD_MS + 0.5)
local DT = PERIOD_MS / 1000
local PWM_TICKS = 10 -- iterations in a PWM period: 100 Hz at 1 kHz
local KP, KI = 0.05, 4.0 -- duty per count of error, and per count-second
local LOG_LINES = 64

local info = hw.info()
if info.adc_channels == 0 then
  print("closed loop: " .. info.board .. " has no ADC (see README, hw)")
  os.exit(1)
end
local adc = hw.adc(SENSOR)
local pin = hw.pin(ACTUATOR, "out")
local full = (1 << adc:bits()) - 1

local integ, on_ticks = 0.0, 0
local k = 0
local readings, duty_sum = 0, 0.0
local commanded, read_back, mismatches = 0, 0, 0
local log = {}

local function control()
  -- the PWM output, and what the pin's register reads back
  local phase = k % PWM_TICKS
  local want = phase < on_ticks and 1 or 0
  pin:value(want)
  local got = pin:value()
  commanded = commanded + want
  read_back = read_back + got
  if got ~= want then mismatches = mismatches + 1 end
  -- the sensor and the controller
  local r = adc:read()
  local err = SETPOINT - r
  integ = integ + err * DT
  if integ * KI > 1 then integ = 1 / KI elseif integ * KI < 0 then integ = 0 end
  local duty = KP * err + KI * integ
  if duty > 1 then duty = 1 elseif duty < 0 then duty = 0 end
  -- a new PWM period starts with the duty computed last
  if phase == PWM_TICKS - 1 then on_ticks = math.floor(duty * PWM_TICKS + 0.5) end
  readings = readings + r
  duty_sum = duty_sum + duty
  k = k + 1
  -- telemetry: a fresh table and a formatted line every period (garbage)
  local rec = {k = k, r = r, duty = duty}
  log[k % LOG_LINES + 1] = string.format("k=%d adc=%d/%d duty=%.2f", rec.k,
                                         rec.r, full, rec.duty)
end

collectgarbage("collect")
local before = rt.stats()
local res = rt.loop(PERIOD_MS, control, N)
local s = rt.stats()
pin:off()

print(string.format("closed loop: %g Hz for %g s on %s, ADC %d -> pin %s (PWM period %d ms)",
                    1000 / PERIOD_MS, SECONDS, info.board, SENSOR, ACTUATOR,
                    PWM_TICKS * PERIOD_MS))
print("last telemetry: " .. log[k % LOG_LINES + 1])
print(string.format("iterations: %d", res.iterations))
print(string.format("deadline misses: %d", res.misses))
print(string.format("worst lateness: %.1f us", res.worst_late_us))
print(string.format("mean reading: %.1f (set point %g)", readings / k, SETPOINT))
print(string.format("mean duty: %.1f%%", duty_sum / k * 100))
print(string.format("pwm ticks on: commanded %d, read back %d, mismatches %d",
                    commanded, read_back, mismatches))
print(string.format("worst GC step: %.1f us, GC steps: %d", s.worst_step_us,
                    s.steps - before.steps))
