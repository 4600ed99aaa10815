// Transactions written by Lance (the fixtures' `.txn` files and inline transaction sections)
// parse into the typed operations and serialise back to exactly the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "lance_nd/table/manifest.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

namespace fs = std::filesystem;

fs::path SourceDir() { return fs::path(lance_nd::testing::SourceDir()); }

std::vector<std::uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Every file under the fixture directories whose parent directory is `dir`.
std::vector<fs::path> FixtureFiles(const std::string& dir) {
  std::vector<fs::path> out;
  for (const char* root : {"src/lance_nd/table/testdata", "tests/lance_testdata"}) {
    const fs::path base = SourceDir() / root;
    if (!fs::exists(base)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(base)) {
      if (entry.is_regular_file() && entry.path().parent_path().filename() == dir) {
        out.push_back(entry.path());
      }
    }
  }
  return out;
}

std::uint32_t LoadU32(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | bytes[at + static_cast<std::size_t>(i)];
  return v;
}

// Parse, serialise, parse again: same bytes, same transaction.
void ExpectExactRoundTrip(const std::vector<std::uint8_t>& bytes, const std::string& name,
                          std::map<std::string, int>* seen) {
  LND_ASSERT_OK_AND_ASSIGN(Transaction txn, ParseTransaction(bytes, name));
  ++(*seen)[std::string(txn.name())];
  LND_ASSERT_OK_AND_ASSIGN(std::vector<std::uint8_t> again, SerializeTransaction(txn));
  EXPECT_EQ(again, bytes) << name << " (" << txn.name() << ")";
  LND_ASSERT_OK_AND_ASSIGN(Transaction back, ParseTransaction(again, name));
  EXPECT_EQ(back, txn) << name;
}

TEST(TableTransactionBytes, LanceTransactionFilesRoundTripExactly) {
  std::map<std::string, int> seen;
  const std::vector<fs::path> files = FixtureFiles("_transactions");
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.string());
    ExpectExactRoundTrip(ReadBytes(path), path.string(), &seen);
  }
  EXPECT_GE(files.size(), 26u);
  for (const char* op :
       {"Append", "Delete", "Overwrite", "Merge", "Update", "Rewrite", "ReserveFragments"}) {
    EXPECT_GT(seen[op], 0) << op << " is in no fixture";
  }
}

TEST(TableTransactionBytes, InlineTransactionSectionsRoundTripExactly) {
  std::map<std::string, int> seen;
  int inline_sections = 0;
  for (const fs::path& path : FixtureFiles("_versions")) {
    if (path.extension() != ".manifest") continue;
    SCOPED_TRACE(path.string());
    const std::vector<std::uint8_t> bytes = ReadBytes(path);
    LND_ASSERT_OK_AND_ASSIGN(ManifestFile file, ParseManifestFile(bytes, path.string()));
    if (!file.manifest.transaction_section) continue;
    const std::size_t at = static_cast<std::size_t>(*file.manifest.transaction_section);
    const std::uint32_t len = LoadU32(bytes, at);
    const std::vector<std::uint8_t> section(
        bytes.begin() + static_cast<std::ptrdiff_t>(at + 4),
        bytes.begin() + static_cast<std::ptrdiff_t>(at + 4 + len));
    ExpectExactRoundTrip(section, path.string(), &seen);
    ASSERT_TRUE(file.transaction.has_value());
    ++inline_sections;
  }
  EXPECT_GE(inline_sections, 19);  // every Lance 12 manifest carries its transaction inline
}

}  // namespace
}  // namespace lance_nd::table
