local function r(n) return 1 + r(n) end return r(1)
