local x = nil; x()
