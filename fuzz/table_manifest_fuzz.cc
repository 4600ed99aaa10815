// Fuzz the manifest file container and Manifest/Transaction decoding, plus schema rebuilding.
#include <cstddef>
#include <cstdint>
#include <span>

#include "lance_nd/table/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = lance_nd::table::ParseManifestFile(std::span(data, size), "fuzz.manifest");
  if (parsed.ok()) {
    (void)parsed->manifest.num_rows();
    (void)lance_nd::table::SchemaFromFields(parsed->manifest.fields,
                                            parsed->manifest.schema_metadata);
    if (parsed->transaction) {
      (void)lance_nd::table::SerializeTransaction(*parsed->transaction);
    }
  }
  (void)lance_nd::table::ParseTransaction(std::span(data, size), "fuzz.txn");
  return 0;
}
