-- Recursive calls: naive Fibonacci.  arg[1] = n (default 30).
local n = tonumber(arg and arg[1]) or N or 30
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("checksum", fib(n))
