// Reads every data file of the tables make_tables.mjs made LanceDB (Lance 12) write, with
// lance-nd's FileReader, and compares every column with the values the script dumped.
//   LANCE_ND_INTEROP_GEN=<dir made by make_tables.mjs> read_interop_test
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lance_nd/file/reader.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

namespace fs = std::filesystem;
using array::ArrayData;
using array::TypeId;
using nlohmann::json;

std::string Hex(const std::uint8_t* p, std::size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

double HalfToDouble(std::uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = std::ldexp(mant, -24);
  } else if (exp == 31) {
    v = mant ? std::nan("") : INFINITY;
  } else {
    v = std::ldexp(mant + 1024, exp - 25);
  }
  return sign ? -v : v;
}

template <typename T>
T At(const ArrayData& a, std::size_t buffer, int64_t pos) {
  T v;
  std::memcpy(&v, a.buffers[buffer]->data() + pos * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

// Value `pos` of a utf8/binary array with `Offset` offsets: the text, or the bytes in hex.
template <typename Offset>
json VariableBytes(const ArrayData& a, int64_t pos, bool text) {
  const auto b = At<Offset>(a, 1, pos), e = At<Offset>(a, 1, pos + 1);
  const auto* d = a.buffers[2]->data() + b;
  const auto n = static_cast<std::size_t>(e - b);
  if (text) return std::string(reinterpret_cast<const char*>(d), n);
  return Hex(d, n);
}

json ToJson(const ArrayData& a, int64_t i) {
  if (a.type->id() == TypeId::kNull || !a.IsValid(i)) return nullptr;
  const int64_t pos = a.offset + i;
  switch (a.type->id()) {
    case TypeId::kBool:
      return array::GetBit(a.buffers[1]->data(), pos);
    case TypeId::kInt8:
      return At<int8_t>(a, 1, pos);
    case TypeId::kInt16:
      return At<int16_t>(a, 1, pos);
    case TypeId::kInt32:
      return At<int32_t>(a, 1, pos);
    case TypeId::kUInt8:
      return At<uint8_t>(a, 1, pos);
    case TypeId::kUInt16:
      return At<uint16_t>(a, 1, pos);
    case TypeId::kUInt32:
      return At<uint32_t>(a, 1, pos);
    case TypeId::kDate32:
      return At<int32_t>(a, 1, pos);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return std::to_string(At<int64_t>(a, 1, pos));
    case TypeId::kUInt64:
      return std::to_string(At<uint64_t>(a, 1, pos));
    case TypeId::kFloat16:
      return HalfToDouble(At<uint16_t>(a, 1, pos));
    case TypeId::kFloat32:
      return static_cast<double>(At<float>(a, 1, pos));
    case TypeId::kFloat64:
      return At<double>(a, 1, pos);
    case TypeId::kUtf8:
      return VariableBytes<int32_t>(a, pos, /*text=*/true);
    case TypeId::kBinary:
      return VariableBytes<int32_t>(a, pos, /*text=*/false);
    case TypeId::kLargeUtf8:
      return VariableBytes<int64_t>(a, pos, /*text=*/true);
    case TypeId::kLargeBinary:
      return VariableBytes<int64_t>(a, pos, /*text=*/false);
    case TypeId::kFixedSizeBinary: {
      const int64_t w = a.type->fixed_size();
      return Hex(a.buffers[1]->data() + pos * w, static_cast<std::size_t>(w));
    }
    case TypeId::kList:
    case TypeId::kLargeList: {
      int64_t b, e;
      if (a.type->id() == TypeId::kList) {
        b = At<int32_t>(a, 1, pos);
        e = At<int32_t>(a, 1, pos + 1);
      } else {
        b = At<int64_t>(a, 1, pos);
        e = At<int64_t>(a, 1, pos + 1);
      }
      json out = json::array();
      for (int64_t k = b; k < e; ++k) out.push_back(ToJson(*a.children[0], k));
      return out;
    }
    case TypeId::kFixedSizeList: {
      const int64_t n = a.type->fixed_size();
      json out = json::array();
      for (int64_t k = 0; k < n; ++k) out.push_back(ToJson(*a.children[0], pos * n + k));
      return out;
    }
    case TypeId::kStruct: {
      json out = json::object();
      const auto& fields = a.type->children();
      for (std::size_t c = 0; c < fields.size(); ++c)
        out[fields[c]->name()] = ToJson(*a.children[c], pos);
      return out;
    }
    default:
      return "<unsupported type " + a.type->ToString() + ">";
  }
}

// Compare a column with expected values for `rows` (indices into expected).
void ExpectColumn(const std::string& where, const ArrayData& column, const json& expected,
                  const std::vector<std::uint64_t>& rows) {
  ASSERT_EQ(column.length, static_cast<int64_t>(rows.size())) << where;
  int failures = 0;
  for (std::size_t i = 0; i < rows.size() && failures < 3; ++i) {
    const json got = ToJson(column, static_cast<int64_t>(i));
    const json& want = expected.at(rows[i]);
    if (got != want) {
      ++failures;
      std::string g = got.dump(), w = want.dump();
      if (g.size() > 600) g = g.substr(0, 600) + "...";
      if (w.size() > 600) w = w.substr(0, 600) + "...";
      ADD_FAILURE() << where << " row " << rows[i] << ":\n  got  " << g << "\n  want " << w;
    }
  }
}

std::vector<std::uint64_t> Iota(std::uint64_t n) {
  std::vector<std::uint64_t> v(n);
  for (std::uint64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

class ReadInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("LANCE_ND_INTEROP_GEN");
    if (dir == nullptr) GTEST_SKIP() << "LANCE_ND_INTEROP_GEN is not set";
    gen_ = dir;
    for (const auto& e : fs::directory_iterator(gen_ / "expected"))
      tables_.push_back(e.path().stem().string());
    std::sort(tables_.begin(), tables_.end());
    ASSERT_FALSE(tables_.empty());
  }

  struct Table {
    json expected;
    FileReader reader;
  };

  Result<Table> Load(const std::string& name) {
    std::ifstream in(gen_ / "expected" / (name + ".json"));
    json expected = json::parse(in);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(gen_ / "db" / (name + ".lance") / "data")) {
      if (e.path().extension() == ".lance") files.push_back(e.path());
    }
    if (files.size() != 1) return Status::InvalidArgument(name + ": expected one data file");
    LND_ASSIGN_OR_RETURN(auto file, io::LocalFileSystem()->OpenForRead(files[0].string()));
    LND_ASSIGN_OR_RETURN(auto reader, FileReader::Open(file));
    return Table{std::move(expected), std::move(reader)};
  }

  fs::path gen_;
  std::vector<std::string> tables_;
};

TEST_F(ReadInteropTest, ReadAllMatchesEveryColumn) {
  for (const auto& name : tables_) {
    SCOPED_TRACE(name);
    LND_ASSERT_OK_AND_ASSIGN(Table t, Load(name));
    const std::string version = t.expected.at("version");
    EXPECT_EQ(t.reader.version().ToString(), version);
    const auto num_rows = t.expected.at("num_rows").get<std::uint64_t>();
    EXPECT_EQ(t.reader.num_rows(), static_cast<int64_t>(num_rows));
    auto batch = t.reader.ReadAll();
    if (!batch.ok()) {
      ADD_FAILURE() << name << ": " << batch.status().ToString();
      continue;
    }
    const auto& cols = t.expected.at("columns");
    EXPECT_EQ((*batch)->num_columns(), static_cast<int>(cols.size()));
    for (const auto& [col, values] : cols.items()) {
      auto array = (*batch)->GetColumnByName(col);
      if (!array) {
        ADD_FAILURE() << name << ": no column " << col;
        continue;
      }
      LND_EXPECT_OK(array::Validate(*array));
      ExpectColumn(name + "." + col, *array, values, Iota(num_rows));
    }
  }
}

TEST_F(ReadInteropTest, TakeAndScanAndProjection) {
  for (const auto& name : tables_) {
    SCOPED_TRACE(name);
    LND_ASSERT_OK_AND_ASSIGN(Table t, Load(name));
    const auto num_rows = t.expected.at("num_rows").get<std::uint64_t>();
    const auto& cols = t.expected.at("columns");
    // Take: a scattered, unsorted selection with a repeat.
    std::vector<std::uint64_t> rows;
    for (std::uint64_t i = 0; i < num_rows; i += 1 + (i % 17)) rows.push_back(num_rows - 1 - i);
    rows.push_back(0);
    rows.push_back(0);
    auto taken = t.reader.Take(rows);
    if (!taken.ok()) {
      ADD_FAILURE() << name << " take: " << taken.status().ToString();
      continue;
    }
    for (const auto& [col, values] : cols.items()) {
      ExpectColumn(name + "." + col + " (take)", *(*taken)->GetColumnByName(col), values, rows);
    }
    // Scan in small batches, one column at a time.
    for (const auto& [col, values] : cols.items()) {
      LND_ASSERT_OK_AND_ASSIGN(auto scan, t.reader.Scan({col}, ScanOptions{7, 1 << 20}));
      std::uint64_t next = 0;
      while (true) {
        LND_ASSERT_OK_AND_ASSIGN(auto batch, scan.Next());
        if (!batch) break;
        ASSERT_LE(batch->num_rows(), 7);
        ASSERT_EQ(batch->num_columns(), 1);
        std::vector<std::uint64_t> expect_rows;
        for (int64_t i = 0; i < batch->num_rows(); ++i)
          expect_rows.push_back(next + static_cast<std::uint64_t>(i));
        ExpectColumn(name + "." + col + " (scan)", *batch->column(0), values, expect_rows);
        next += static_cast<std::uint64_t>(batch->num_rows());
      }
      EXPECT_EQ(next, num_rows) << col;
    }
    // Struct child projection: every child of every struct column on its own.
    for (const auto& field : t.reader.schema()->fields()) {
      if (field->type()->id() != TypeId::kStruct) continue;
      for (const auto& child : field->type()->children()) {
        const std::string path = field->name() + "." + child->name();
        LND_ASSERT_OK_AND_ASSIGN(auto batch, t.reader.ReadAll({path}));
        ASSERT_EQ(batch->num_columns(), 1);
        const auto& s = *batch->column(0);
        ASSERT_EQ(s.children.size(), 1u) << path;
        const json& all = cols.at(field->name());
        int failures = 0;
        for (std::uint64_t r = 0; r < num_rows && failures < 3; ++r) {
          json want = all.at(r).is_null() ? json(nullptr)
                                          : json{{child->name(), all.at(r).at(child->name())}};
          json got = ToJson(s, static_cast<int64_t>(r));
          if (got != want) {
            ++failures;
            ADD_FAILURE() << name << " " << path << " row " << r << ": got "
                          << got.dump().substr(0, 300) << " want " << want.dump().substr(0, 300);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace lance_nd::file
