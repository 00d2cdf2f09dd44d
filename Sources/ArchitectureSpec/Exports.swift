// The kit is used together with the apps it checks; importing it brings their domain along.
@_exported import ArchitectureApps
