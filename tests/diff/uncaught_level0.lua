-- an uncaught error without position
error("no position here", 0)
