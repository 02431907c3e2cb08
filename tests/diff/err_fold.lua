-- A division by zero is not folded at compile time (as the reference's
-- compiler does not), so an error message names an operand only where
-- the reference names it (found by tests/difffuzz).
print(pcall(function() return ((-1/0) and "") ~ 3 end))
print(pcall(function() return ((1/0) or {}) .. {} end))
print(pcall(function() local z = (-1/0) and "" return z ~ 3 end))
print(pcall(function() return ("") ~ 3 end))
print(1/0, -1/0, 1//0.0, -1//0.0, 2^53 // 0.5, 7 // 2.0)
