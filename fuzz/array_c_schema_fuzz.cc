// Fuzz target: builds an ArrowSchema tree (format strings, names, flags, metadata blobs,
// dictionaries) from the input bytes and imports it with ImportSchema / ImportField / ImportType.
// Checks: no crash, the struct is always released exactly once, and what imports re-exports and
// re-imports to an equal value.
//
// Input layout: byte 0 chooses the entry point (% 3), then one node, recursively:
//   format selector: < 0x80 picks a table entry (% table size), else (b & 0x1f) raw bytes follow
//   name length (% 16) + bytes | flags byte (bit 0x80: has a dictionary node, low 3 bits: flags)
//   metadata length (0..255) + raw blob | child count (% 4) | children | dictionary node
// Missing bytes read as zero. A metadata blob is attached only when a bounds-checked decode
// accepts it (the C interface carries no blob size, so the importer trusts the lengths).
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/c_data.h"
#include "lance_nd/array/c_data_internal.h"

namespace {

using lance_nd::array::internal::DecodeCMetadata;

constexpr const char* kFormats[] = {"n",
                                    "b",
                                    "c",
                                    "C",
                                    "s",
                                    "S",
                                    "i",
                                    "I",
                                    "l",
                                    "L",
                                    "e",
                                    "f",
                                    "g",
                                    "u",
                                    "U",
                                    "z",
                                    "Z",
                                    "w:4",
                                    "tdD",
                                    "tdm",
                                    "tss:",
                                    "tsm:UTC",
                                    "tsu:Europe/Paris",
                                    "tsn:",
                                    "tDs",
                                    "tDm",
                                    "tDu",
                                    "tDn",
                                    "+l",
                                    "+L",
                                    "+w:3",
                                    "+s",
                                    "d:10,2",
                                    "tts",
                                    "tiM",
                                    "+m",
                                    "+ud:0,1",
                                    "vu",
                                    "+r",
                                    "w:",
                                    "w:x",
                                    "ts",
                                    "+w:-1",
                                    "",
                                    "+vl",
                                    "tsx:",
                                    "w:2147483647",
                                    "+w:0"};
constexpr std::size_t kNumFormats = sizeof(kFormats) / sizeof(kFormats[0]);

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string Bytes(std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n && pos_ < size_; ++i)
      out.push_back(static_cast<char>(data_[pos_++]));
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

struct Node {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema*> children;
  ArrowSchema schema{};
};

int g_releases = 0;

void Release(ArrowSchema* s) {
  for (int64_t i = 0; i < s->n_children; ++i) {
    if (s->children[i]->release != nullptr) s->children[i]->release(s->children[i]);
  }
  if (s->dictionary != nullptr && s->dictionary->release != nullptr) {
    s->dictionary->release(s->dictionary);
  }
  ++g_releases;
  s->release = nullptr;
}

ArrowSchema* Build(Reader& r, std::deque<Node>& nodes, int depth) {
  nodes.emplace_back();
  Node& n = nodes.back();
  const std::uint8_t sel = r.Byte();
  n.format = sel < 0x80 ? std::string(kFormats[sel % kNumFormats]) : r.Bytes(sel & 0x1f);
  n.name = r.Bytes(r.Byte() % 16);
  const std::uint8_t flags = r.Byte();
  const std::string blob = r.Bytes(r.Byte());
  if (DecodeCMetadata(blob.data(), blob.size()).ok()) n.metadata = blob;
  const int n_children = depth < 100 ? r.Byte() % 4 : 0;
  for (int i = 0; i < n_children; ++i) n.children.push_back(Build(r, nodes, depth + 1));
  ArrowSchema* dictionary =
      (flags & 0x80) != 0 && depth < 100 ? Build(r, nodes, depth + 1) : nullptr;
  ArrowSchema& s = n.schema;
  s.format = n.format.c_str();
  s.name = n.name.c_str();
  s.metadata = n.metadata.empty() ? nullptr : n.metadata.c_str();
  s.flags = flags & 7;
  s.n_children = static_cast<int64_t>(n.children.size());
  s.children = n.children.empty() ? nullptr : n.children.data();
  s.dictionary = dictionary;
  s.release = &Release;
  s.private_data = nullptr;
  return &s;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd::array;  // NOLINT(google-build-using-namespace)
  Reader r(data, size);
  const int mode = r.Byte() % 3;
  std::deque<Node> nodes;
  ArrowSchema* root = Build(r, nodes, 0);
  const int total = static_cast<int>(nodes.size());
  g_releases = 0;
  if (mode == 0) {
    auto schema = ImportSchema(root);
    if (schema.ok()) {
      ArrowSchema again{};
      Check(ExportSchema(**schema, &again).ok());
      auto back = ImportSchema(&again);
      Check(back.ok() && (*back)->Equals(**schema, true));
    }
  } else if (mode == 1) {
    auto field = ImportField(root);
    if (field.ok()) {
      ArrowSchema again{};
      Check(ExportField(**field, &again).ok());
      auto back = ImportField(&again);
      Check(back.ok() && (*back)->Equals(**field, true));
    }
  } else {
    auto type = ImportType(root);
    if (type.ok()) {
      ArrowSchema again{};
      Check(ExportType(**type, &again).ok());
      auto back = ImportType(&again);
      Check(back.ok() && (*back)->Equals(**type, true));
    }
  }
  // The importer released the root, and the root released every node, once.
  Check(root->release == nullptr);
  Check(g_releases == total);
  return 0;
}
