if x then elseif y then else end repeat local z = 1 until z
