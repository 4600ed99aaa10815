// Fuzz the Lance container parser: footer, offset tables, FileDescriptor, schema conversion,
// column metadata and page-layout unwrapping (FileReader::Open + Describe + projections).
#include <cstdint>
#include <vector>

#include "lance_nd/file/reader.h"
#include "lance_nd/io/file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto file = lance_nd::io::MakeBufferFile(std::vector<std::uint8_t>(data, data + size), "fuzz");
  auto reader = lance_nd::file::FileReader::Open(file, {.num_threads = 1});
  if (!reader.ok()) return 0;
  const auto description = reader->Describe();
  for (const auto& f : description.fields) {
    (void)reader->ProjectedSchema({f.path});
  }
  return 0;
}
