print("arch")
