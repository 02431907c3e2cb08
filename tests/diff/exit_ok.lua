-- a script that ends normally prints and exits 0
print("fine")
return 1, 2, 3
