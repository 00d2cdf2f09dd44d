import Testing

@testable import Kernel

/// Key paths read and written by offset must give what `root[keyPath:]` gives, for every kind
/// of key path, stored inline or not.
@Suite struct FieldReaderBehaviour {
  struct Inner: Equatable {
    var title = "inner"
    var count = 1
  }

  final class Box: @unchecked Sendable {
    var value = 7
  }

  struct Root {
    var flag = true
    var name = "root"
    var inner = Inner()
    var optional: Inner? = Inner(title: "maybe", count: 2)
    var rows = IdentifiedList(["one", "two"], id: \.self)
    let box = Box()
    var computed: Int { inner.count * 10 }
  }

  @Test func readsWhatTheKeyPathReads() {
    let root = Root()
    #expect(FieldReader(\Root.name)(root) == "root")
    #expect(FieldReader(\Root.inner.title)(root) == "inner")
    #expect(FieldReader(\Root.inner)(root) == Inner())
    #expect(FieldReader(\Root.optional)(root)?.count == 2)
    #expect(FieldReader(\Root.flag)(root))
    // Not stored inline: read through the key path.
    #expect(FieldReader(\Root.computed)(root) == 10)
    #expect(FieldReader(\Root.optional?.title)(root) == "maybe")
    #expect(FieldReader(\Root.box.value)(root) == 7)
  }

  @Test func storedFieldsHaveOffsetsAndOthersDoNot() {
    #expect(FieldReader(\Root.inner.count).offset != nil)
    #expect(FieldReader(\Root.computed).offset == nil)
    #expect(FieldReader(\Root.optional?.title).offset == nil)
    #expect(FieldReader(\Root.box.value).offset == nil)
  }

  @Test func changesInPlaceWhatTheKeyPathChanges() {
    var root = Root()
    let field = WritableField(\Root.inner.title)
    field.modify(&root) { $0 += "!" }
    #expect(root.inner.title == "inner!")
    #expect(field(root) == "inner!")
    WritableField(\Root.optional).modify(&root) { $0 = nil }
    #expect(root.optional == nil)
    WritableField.modify(&root, at: \Root.name) { $0 = "renamed" }
    #expect(root.name == "renamed")
    // Through a class: the key path's own projection.
    WritableField.modify(&root, at: \Root.box.value) { $0 += 1 }
    #expect(root.box.value == 8)
    // The rest of the root is untouched.
    #expect(root.flag && root.inner.count == 1)
  }

  @Test func aChangedFieldIsNotSharedWithACopyOfTheRoot() {
    var root = Root()
    let copy = root
    WritableField(\Root.name).modify(&root) { $0.append(" changed") }
    #expect(root.name == "root changed")
    #expect(copy.name == "root")
  }
}

extension FieldReaderBehaviour {
  @Test func readsAListStoredInline() {
    let root = Root()
    #expect(FieldReader(\Root.rows)(root).ids == ["one", "two"])
  }
}
