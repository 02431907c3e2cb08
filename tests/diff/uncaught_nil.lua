-- an uncaught error(nil)
error(nil)
