// Fuzz page decoding end to end: open a (mutated) Lance file and read every column, a row
// range, a take and a streamed scan. Files claiming many rows are skipped to bound memory.
#include <cstdint>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/io/file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto file = lance_nd::io::MakeBufferFile(std::vector<std::uint8_t>(data, data + size), "fuzz");
  auto reader = lance_nd::file::FileReader::Open(file, {.num_threads = 1});
  if (!reader.ok()) return 0;
  const std::int64_t rows = reader->num_rows();
  if (rows > 200000) return 0;
  auto all = reader->ReadAll();
  if (all.ok()) {
    // Whatever the reader returns must be a structurally valid Arrow array (string bytes are
    // passed through unchecked, as Lance does, so UTF-8 errors are tolerated here).
    for (const auto& column : (*all)->columns()) {
      const auto st = lance_nd::array::Validate(*column);
      if (!st.ok() && st.message().find("UTF-8") == std::string_view::npos) __builtin_trap();
    }
  }
  if (rows > 0) {
    (void)reader->ReadRange(rows / 2, rows - rows / 2);
    const std::vector<std::uint64_t> take = {static_cast<std::uint64_t>(rows - 1), 0,
                                             static_cast<std::uint64_t>(rows / 3)};
    (void)reader->Take(take);
    auto scan = reader->Scan({}, {.max_rows = 3, .max_bytes = 1 << 20});
    if (scan.ok()) {
      for (int i = 0; i < 4; ++i) {
        auto b = scan->Next();
        if (!b.ok() || !*b) break;
      }
    }
  }
  return 0;
}
