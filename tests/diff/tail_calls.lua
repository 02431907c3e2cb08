-- proper tail calls do not grow the stack
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + n) end
print(loop(1000000, 0))
local even, odd
function even(n) if n == 0 then return "even" end return odd(n - 1) end
function odd(n) if n == 0 then return "odd" end return even(n - 1) end
print(even(500001), odd(500000))
local function va(n, ...) if n == 0 then return select("#", ...) end return va(n - 1, ...) end
print(va(200000, 1, 2, 3))
local obj = {n = 0}
function obj:step(k) if k == 0 then return self.n end self.n = self.n + 1; return self:step(k - 1) end
print(obj:step(300000))
