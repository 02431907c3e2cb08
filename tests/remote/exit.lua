-- run by tests/remote/run: os.exit's code is the run's status.
print("exiting")
os.exit(7)
