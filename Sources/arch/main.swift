import ArchitectureCommands

ArchitectureCommand.main()
