-- sensors: a package (sensors/init.lua) with a submodule.
local adc = require "sensors.adc"
return {name = "sensors", adc = adc, read = function(ch)
  return adc.convert(ch * 100)
end}
