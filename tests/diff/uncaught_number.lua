-- an uncaught error whose value is a number
error(42)
