local s = coroutine.create(function() coroutine.yield(pcall(coroutine.yield, 1)) end) return coroutine.resume(s), coroutine.resume(s, 2)
