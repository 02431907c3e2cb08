-- an uncaught runtime error inside named functions, a method and a field
local M = {}
function M.field(t) return t.x.y end
local obj = {}
function obj:method() return M.field({}) end
local function helper() return obj:method() + 1 end
helper()
