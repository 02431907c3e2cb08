-- telemetry: the run's figures.  new{every = ms, period_ms = p} keeps
-- the error's extremes and mean, prints a line every `every` periods, and
-- finish(loop_result) prints the summary: the loop's deadline misses and
-- lateness, the collector's figures (rt.stats), and how many prototypes
-- the collector traversed (none when the code runs from flash).
local M = {}
M.__index = M

function M.new(opts)
  local s = setmetatable({}, M)
  s.every = opts.every or 100
  s.period_ms = opts.period_ms or 1
  s.n, s.sum, s.worst, s.late = 0, 0.0, 0.0, 0.0
  s.gc0 = rt.stats()
  return s
end

function M:record(t, setpoint, measured, u, late)
  local err = setpoint - measured
  self.n = self.n + 1
  self.sum = self.sum + math.abs(err)
  if late > self.late then self.late = late end
  -- the error once settled: the last fifth of each set point's half
  local phase = (t * 1000 // self.period_ms) % (self.every * 2)
  if phase > self.every * 1.6 and math.abs(err) > self.worst then
    self.worst = math.abs(err)
  end
  if self.n % self.every == 0 then
    -- a fresh line every report: garbage the collector takes in the slack
    print(string.format("t=%.3f sp=%.1f T=%.2f u=%.3f", t, setpoint,
                        measured, u))
  end
end

function M:finish(r)
  local s = rt.stats()
  print(string.format("iterations: %d", r.iterations))
  print(string.format("deadline misses: %d", r.misses))
  print(string.format("worst lateness: %.1f us", r.worst_late_us))
  print(string.format("mean |error|: %.3f, worst settled: %.3f",
                      self.sum / self.n, self.worst))
  print(string.format("GC steps: %d, cycles: %d, worst step: %.1f us",
                      s.steps - self.gc0.steps,
                      s.cycles_completed - self.gc0.cycles_completed,
                      s.worst_step_us))
  print(string.format("prototypes traversed by the collector: %d",
                      s.protos_traversed - self.gc0.protos_traversed))
  print(string.format("arena in use: %d / %d bytes", s.in_use, s.arena))
end

return M
