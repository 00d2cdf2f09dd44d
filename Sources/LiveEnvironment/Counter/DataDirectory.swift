import Foundation

/// Where the samples keep their data by default.
public enum DataDirectory {
  /// The folder this project's samples use inside the user's data directory.
  public static let folderName = "swift-unidirectional-architectures"

  /// The user's data directory: `$XDG_DATA_HOME`, else `~/.local/share` on Linux and
  /// `~/Library/Application Support` on macOS.
  ///
  /// - Parameter environment: The process environment (a parameter so tests can pass their own).
  /// - Returns: The directory, or `nil` when neither `XDG_DATA_HOME` nor `HOME` is set.
  public static func userData(environment: [String: String]) -> URL? {
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true)
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    #if os(macOS)
      return URL(fileURLWithPath: home, isDirectory: true)
        .appending(path: "Library/Application Support", directoryHint: .isDirectory)
    #else
      return URL(fileURLWithPath: home, isDirectory: true)
        .appending(path: ".local/share", directoryHint: .isDirectory)
    #endif
  }

  /// The counter's default file: `<user data>/swift-unidirectional-architectures/counter.txt`.
  public static func counterFile(environment: [String: String]) -> URL? {
    userData(environment: environment)?
      .appending(path: folderName, directoryHint: .isDirectory)
      .appending(path: "counter.txt", directoryHint: .notDirectory)
  }

  /// The todos' default file: `<user data>/swift-unidirectional-architectures/todos.json`.
  public static func todosFile(environment: [String: String]) -> URL? {
    userData(environment: environment)?
      .appending(path: folderName, directoryHint: .isDirectory)
      .appending(path: "todos.json", directoryHint: .notDirectory)
  }
}
