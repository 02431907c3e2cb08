-- telemetry: the run's figures.  new{every = ms, period_ms = p} keeps
-- the error's extremes and mean, prints a line every `every` periods, and
-- finish(loop_result) prints the summary: the loop's deadline misses and
-- lateness, the collector's figures (rt.stats), and how many prototypes
-- the collector traversed (none when the code runs from flash).
-- It reads rt.stats(name), field by field: the whole table is some forty
-- fields, 2.7 KB of microbit's 7.5 KiB arena.
local M = {}
M.__index = M

function M.new(opts)
  local s = setmetatable({}, M)
  s.every = opts.every or 100
  s.period_ms = opts.period_ms or 1
  s.n, s.sum, s.worst, s.late = 0, 0.0, 0.0, 0.0
  s.steps0, s.cycles0 = rt.stats("steps"), rt.stats("cycles_completed")
  s.protos0 = rt.stats("protos_traversed")
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
  local st = rt.stats
  print(string.format("iterations: %d", r.iterations))
  print(string.format("deadline misses: %d", r.misses))
  print(string.format("worst lateness: %.1f us", r.worst_late_us))
  print(string.format("mean |error|: %.3f, worst settled: %.3f",
                      self.sum / self.n, self.worst))
  print(string.format("GC steps: %d, cycles: %d, worst step: %.1f us",
                      st("steps") - self.steps0,
                      st("cycles_completed") - self.cycles0,
                      st("worst_step_us")))
  print(string.format("prototypes traversed by the collector: %d",
                      st("protos_traversed") - self.protos0))
  print(string.format("arena in use: %d / %d bytes", st("in_use"),
                      st("arena")))
end

return M
