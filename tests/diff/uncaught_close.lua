-- an error from a __close handler at the end of the main chunk
do
  local x <close> = setmetatable({}, {__close = function() error("close failed") end})
  print("in block")
end
