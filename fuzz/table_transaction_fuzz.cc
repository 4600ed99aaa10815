// Fuzz transaction decoding (.txn bytes), re-encoding, and applying the transaction to a small
// manifest plus the conflict rules (everything a committer does with a foreign transaction).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "lance_nd/table/commit/build_manifest.h"
#include "lance_nd/table/manifest.h"

namespace {

lance_nd::table::Manifest BaseManifest() {
  using namespace lance_nd::table;
  Manifest m;
  m.version = 3;
  m.fields = {{"id", 0, -1, "int64", false, {}}, {"x", 1, -1, "float", true, {}}};
  for (std::uint64_t id : std::initializer_list<std::uint64_t>{0, 2, 5}) {
    Fragment f;
    f.id = id;
    f.physical_rows = 10;
    f.files.push_back(
        DataFile{"f" + std::to_string(id) + ".lance", {0, 1}, {0, 1}, 2, 2, 100, std::nullopt});
    m.fragments.push_back(f);
  }
  m.max_fragment_id = 5;
  m.data_format_file_format = "lance";
  m.data_format_version = "2.2";
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd::table;
  auto parsed = ParseTransaction(std::span(data, size), "fuzz.txn");
  if (!parsed.ok()) return 0;
  const Transaction& t = *parsed;
  (void)t.TouchedFragmentIds();
  (void)t.name();
  (void)internal::CheckCompatible(t, t, 4);
  static const Manifest base = BaseManifest();
  internal::BuildContext ctx;
  ctx.latest = &base;
  ctx.restored = &base;
  ctx.transaction_file = "3-x.txn";
  auto built = internal::BuildManifest(t, ctx);
  if (built.ok()) {
    auto bytes = SerializeManifestFile(*built, nullptr);
    if (bytes.ok()) (void)ParseManifestFile(*bytes, "rebuilt.manifest");
  }
  auto again = SerializeTransaction(t);
  if (again.ok()) (void)ParseTransaction(*again, "again.txn");
  return 0;
}
