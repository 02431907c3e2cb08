-- An input's own hooks must not take away the run's bound (fuzz_run.c:
-- guard_hook): a long rt.timeout (its hook stands in for the run's), then
-- a line hook whose function makes the count run out inside it, so that
-- no count event comes.
pcall(rt.timeout, 1e9, function() while true do end end)
debug.sethook(function() end, "l", 999)
while true do end
