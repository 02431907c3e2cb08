-- an uncaught error whose value is a table
print("start")
error({code = 5})
