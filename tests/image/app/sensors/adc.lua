-- sensors.adc: a submodule.
local A = {}
function A.convert(raw)
  return raw // 3, raw % 3
end
return A
