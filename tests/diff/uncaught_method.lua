-- traceback names: methods, fields of globals, locals and C functions
local Account = {}
Account.__index = Account
function Account:withdraw(n) if n > self.balance then error("insufficient funds") end end
local acc = setmetatable({balance = 10}, Account)
Lib = {}
function Lib.run(f) return f() end
local function go() Lib.run(function() acc:withdraw(100) end) end
go()
