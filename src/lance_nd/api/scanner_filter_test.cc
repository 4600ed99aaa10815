// Filtered scans: exact filters against a row-at-a-time reference written here on random
// tables, stats pruning (never loses a matching row), both together, limits, counts, errors,
// and a key added to a table after data was written.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>

#include "lance_nd/api/read_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryLocation;
using api_testing::WriteInGroups;
using api_testing::WriteRows;
using api_testing::WriteSpec;
using nd::NdRecordBatch;
using nd::testing::Chance;
using nd::testing::Rng;
using nd::testing::Uniform;
using nd::testing::Unwrap;

using Truth = std::optional<bool>;  // SQL's three values: nullopt is unknown

/// A filter as SQL text and the reference evaluation of it on one nd row.
struct Cond {
  std::string sql;
  std::function<Truth(const NdRecordBatch&)> eval;
};

std::string Quote(const std::string& name) { return "`" + name + "`"; }

Truth Not(Truth a) { return a ? Truth(!*a) : std::nullopt; }
Truth And(Truth a, Truth b) {
  if ((a && !*a) || (b && !*b)) return false;
  if (a && b) return true;
  return std::nullopt;
}
Truth Or(Truth a, Truth b) {
  if ((a && *a) || (b && *b)) return true;
  if (a && b) return false;
  return std::nullopt;
}

/// A literal for the one value of attribute `value` and how to compare a value with it:
/// strings by equality, numbers by `op`, booleans by equality. nullopt for lists.
std::optional<Cond> CompareAttribute(const std::string& column, const array::ArrayPtr& value,
                                     std::function<array::ArrayPtr(const NdRecordBatch&)> get,
                                     Rng& rng) {
  if (value->length != 1 || value->IsNull(0)) return std::nullopt;
  const auto id = value->type->id();
  if (api_testing::IsString(*value->type)) {
    const std::string lit(array::BinaryView(*value).Value(0));
    return Cond{column + " = '" + lit + "'", [get, lit](const NdRecordBatch& row) -> Truth {
                  const array::ArrayPtr a = get(row);
                  if (!a) return std::nullopt;
                  return std::string(array::BinaryView(*a).Value(0)) == lit;
                }};
  }
  if (id == array::TypeId::kBool) {
    const bool lit = array::BoolView(*value).Value(0);
    return Cond{column + " = " + (lit ? "true" : "false"),
                [get, lit](const NdRecordBatch& row) -> Truth {
                  const array::ArrayPtr a = get(row);
                  if (!a) return std::nullopt;
                  return array::BoolView(*a).Value(0) == lit;
                }};
  }
  if (id == array::TypeId::kList || id == array::TypeId::kLargeList) return std::nullopt;
  const double lit = api_testing::NumberAt(*value, 0);
  const int op = static_cast<int>(Uniform(rng, 0, 2));
  const char* ops[] = {" = ", " > ", " <= "};
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", lit);
  return Cond{column + ops[op] + text, [get, lit, op](const NdRecordBatch& row) -> Truth {
                const array::ArrayPtr a = get(row);
                if (!a) return std::nullopt;
                const double v = api_testing::NumberAt(*a, 0);
                return op == 0 ? v == lit : op == 1 ? v > lit : v <= lit;
              }};
}

/// The value type's kind for value tests: 'n' numbers (not temporal), 's' strings, 0 none.
char ValueKind(const array::DataType& type) {
  using array::TypeId;
  switch (type.id()) {
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt16:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return 'n';
    case TypeId::kUtf8:
      return 's';
    default:
      return 0;
  }
}

/// Does any counted element of `values` satisfy `op` against the literal? (op: = > >= < <=)
bool AnyElement(const array::ArrayData& values, const std::string& op, double num,
                const std::string& str) {
  const bool strings = api_testing::IsString(*values.type);
  for (int64_t i = 0; i < values.length; ++i) {
    if (values.IsNull(i)) continue;
    int cmp = 0;
    if (strings) {
      const std::string_view v = array::BinaryView(values).Value(i);
      cmp = v < str ? -1 : v > str ? 1 : 0;
    } else {
      const double v = api_testing::NumberAt(values, i);
      if (std::isnan(v)) continue;
      cmp = v < num ? -1 : v > num ? 1 : 0;
    }
    if ((op == "=" && cmp == 0) || (op == ">" && cmp > 0) || (op == ">=" && cmp >= 0) ||
        (op == "<" && cmp < 0) || (op == "<=" && cmp <= 0)) {
      return true;
    }
  }
  return false;
}

/// Random atoms drawn from what the rows hold.
class CondMaker {
 public:
  CondMaker(const std::vector<NdRecordBatch>& rows, Rng& rng) : rows_(rows), rng_(rng) {}

  /// A filter on global attributes, attributes, whole variables and values (array_has).
  std::optional<Cond> ExactAtom() {
    const NdRecordBatch& row =
        rows_[static_cast<std::size_t>(Uniform(rng_, 0, static_cast<int64_t>(rows_.size()) - 1))];
    switch (Uniform(rng_, 0, 3)) {
      case 0: {  // a global attribute
        if (row.attributes().empty()) return std::nullopt;
        const auto& entry = Pick(row.attributes().entries());
        const std::string key = entry.first;
        const std::string column = Quote("__global_attrs__") + "." + Quote(key);
        if (Chance(rng_, 0.25)) {
          return Cond{column + " IS NULL", [key](const NdRecordBatch& r) -> Truth {
                        return r.attributes().Get(key) == nullptr;
                      }};
        }
        return CompareAttribute(
            column, entry.second, [key](const NdRecordBatch& r) { return r.attributes().Get(key); },
            rng_);
      }
      case 1: {  // an attribute of a variable
        if (row.num_columns() == 0) return std::nullopt;
        const int c = static_cast<int>(Uniform(rng_, 0, row.num_columns() - 1));
        const std::string var = row.column_name(c);
        if (row.column(c).attributes().empty()) return std::nullopt;
        const auto& entry = Pick(row.column(c).attributes().entries());
        const std::string key = entry.first;
        return CompareAttribute(
            Quote(var) + ".attrs." + Quote(key), entry.second,
            [var, key](const NdRecordBatch& r) -> array::ArrayPtr {
              const nd::NdArrowArray* a = r.GetColumn(var);
              return a ? a->attributes().Get(key) : nullptr;
            },
            rng_);
      }
      case 2: {  // a whole variable
        if (row.num_columns() == 0) return std::nullopt;
        const std::string var =
            row.column_name(static_cast<int>(Uniform(rng_, 0, row.num_columns() - 1)));
        const bool is_null = Chance(rng_, 0.5);
        return Cond{Quote(var) + (is_null ? " IS NULL" : " IS NOT NULL"),
                    [var, is_null](const NdRecordBatch& r) -> Truth {
                      return (r.GetColumn(var) == nullptr) == is_null;
                    }};
      }
      default:  // array_has on values
        return ArrayHas(row);
    }
  }

  /// A comparison of a variable's values (`v.values > 3`, BETWEEN, IN, array_has) and how to
  /// tell whether some element of a row matches it.
  std::optional<Cond> ValueAtom() {
    const NdRecordBatch& row =
        rows_[static_cast<std::size_t>(Uniform(rng_, 0, static_cast<int64_t>(rows_.size()) - 1))];
    if (row.num_columns() == 0) return std::nullopt;
    const int c = static_cast<int>(Uniform(rng_, 0, row.num_columns() - 1));
    const std::string var = row.column_name(c);
    const array::ArrayData& values = *row.column(c).values();
    const char kind = ValueKind(*values.type);
    if (kind == 0 || values.length == 0) return std::nullopt;
    if (Chance(rng_, 0.2)) return ArrayHas(row);
    const int64_t i = Uniform(rng_, 0, values.length - 1);
    if (values.IsNull(i)) return std::nullopt;
    const double num =
        kind == 'n' ? api_testing::NumberAt(values, i) + static_cast<double>(Uniform(rng_, -2, 2))
                    : 0;
    const std::string str = kind == 's' ? std::string(array::BinaryView(values).Value(i)) : "";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", num);
    const std::string lit = kind == 'n' ? std::string(text) : "'" + str + "'";
    const std::string column = Quote(var) + ".values";
    const std::vector<std::string> ops = {"=", ">", ">=", "<", "<="};
    if (Chance(rng_, 0.2)) {  // BETWEEN lit AND lit (+ a bit)
      const double hi = num + static_cast<double>(Uniform(rng_, 0, 50));
      char high[64];
      std::snprintf(high, sizeof high, "%.17g", hi);
      const std::string hi_lit = kind == 'n' ? std::string(high) : lit;
      return Cond{column + " BETWEEN " + lit + " AND " + hi_lit,
                  [var, num, hi, str](const NdRecordBatch& r) -> Truth {
                    const nd::NdArrowArray* a = r.GetColumn(var);
                    if (!a) return std::nullopt;
                    const array::ArrayData& v = *a->values();
                    const bool strings = api_testing::IsString(*v.type);
                    for (int64_t k = 0; k < v.length; ++k) {
                      if (v.IsNull(k)) continue;
                      if (strings ? array::BinaryView(v).Value(k) == str
                                  : (api_testing::NumberAt(v, k) >= num &&
                                     api_testing::NumberAt(v, k) <= hi)) {
                        return true;
                      }
                    }
                    return false;
                  }};
    }
    const std::string op = ops[static_cast<std::size_t>(Uniform(rng_, 0, 4))];
    return Cond{column + " " + op + " " + lit,
                [var, op, num, str](const NdRecordBatch& r) -> Truth {
                  const nd::NdArrowArray* a = r.GetColumn(var);
                  if (!a) return std::nullopt;
                  return AnyElement(*a->values(), op, num, str);
                }};
  }

 private:
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(Uniform(rng_, 0, static_cast<int64_t>(v.size()) - 1))];
  }

  std::optional<Cond> ArrayHas(const NdRecordBatch& row) {
    if (row.num_columns() == 0) return std::nullopt;
    const int c = static_cast<int>(Uniform(rng_, 0, row.num_columns() - 1));
    const std::string var = row.column_name(c);
    const array::ArrayData& values = *row.column(c).values();
    const char kind = ValueKind(*values.type);
    if (kind == 0 || values.length == 0) return std::nullopt;
    const int64_t i = Uniform(rng_, 0, values.length - 1);
    if (values.IsNull(i)) return std::nullopt;
    const double num = kind == 'n' ? api_testing::NumberAt(values, i) : 0;
    const std::string str = kind == 's' ? std::string(array::BinaryView(values).Value(i)) : "";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", num);
    const std::string lit = kind == 'n' ? std::string(text) : "'" + str + "'";
    return Cond{"array_has(" + Quote(var) + ".values, " + lit + ")",
                [var, num, str](const NdRecordBatch& r) -> Truth {
                  const nd::NdArrowArray* a = r.GetColumn(var);
                  if (!a) return std::nullopt;
                  return AnyElement(*a->values(), "=", num, str);
                }};
  }

  const std::vector<NdRecordBatch>& rows_;
  Rng& rng_;
};

/// The first atom `make` gives within a few tries (an atom needs something to point at).
std::optional<Cond> Retry(const std::function<std::optional<Cond>()>& make) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (auto c = make()) return c;
  }
  return std::nullopt;
}

/// Atoms from `atom` combined with AND, OR and NOT, up to `depth` levels.
std::optional<Cond> Combine(const std::function<std::optional<Cond>()>& atom, Rng& rng, int depth) {
  if (depth == 0 || Chance(rng, 0.4)) return Retry(atom);
  const int how = static_cast<int>(Uniform(rng, 0, 2));
  auto a = Combine(atom, rng, depth - 1);
  if (!a) return std::nullopt;
  if (how == 2) {
    auto ea = a->eval;
    return Cond{"NOT (" + a->sql + ")", [ea](const NdRecordBatch& r) { return Not(ea(r)); }};
  }
  auto b = Combine(atom, rng, depth - 1);
  if (!b) return std::nullopt;
  auto ea = a->eval;
  auto eb = b->eval;
  if (how == 0) {
    return Cond{"(" + a->sql + ") AND (" + b->sql + ")",
                [ea, eb](const NdRecordBatch& r) { return And(ea(r), eb(r)); }};
  }
  return Cond{"(" + a->sql + ") OR (" + b->sql + ")",
              [ea, eb](const NdRecordBatch& r) { return Or(ea(r), eb(r)); }};
}

std::vector<NdRecordBatch> RandomTableRows(Rng& rng) {
  std::vector<NdRecordBatch> rows;
  while (rows.empty() || (rows[0].num_columns() == 0 && rows[0].attributes().empty())) {
    rows = api_testing::TableRows(nd::testing::RandomRows(rng));
  }
  return rows;
}

void ExpectRowsEqual(const std::vector<NdRecordBatch>& got,
                     const std::vector<NdRecordBatch>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i].Equals(want[i]))
        << "row " << i << "\n got: " << got[i].ToString() << "\nwant: " << want[i].ToString();
  }
}

TEST(ScanFilterTest, RandomFiltersSelectWhatTheReferenceSelects) {
  int checked = 0;
  int some_not_all = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Rng rng(seed);
    const auto rows = RandomTableRows(rng);
    WriteSpec spec;
    spec.stats = Chance(rng, 0.5);
    const Table table = Unwrap(
        WriteInGroups(MemoryLocation(), rows, static_cast<std::size_t>(Uniform(rng, 1, 6)), spec));
    CondMaker maker(rows, rng);
    for (int k = 0; k < 4; ++k) {
      auto cond = Combine([&] { return maker.ExactAtom(); }, rng, 2);
      if (!cond) continue;
      SCOPED_TRACE("seed " + std::to_string(seed) + ": " + cond->sql);
      std::vector<NdRecordBatch> want;
      for (const NdRecordBatch& row : rows) {
        if (cond->eval(row) == Truth(true)) want.push_back(row);
      }
      Scanner scan = table.Scan();
      scan.Filter(cond->sql).BatchRows(Uniform(rng, 1, 4));
      LND_ASSERT_OK_AND_ASSIGN(auto got, scan.ReadAll());
      ExpectRowsEqual(got, want);
      LND_ASSERT_OK_AND_ASSIGN(std::uint64_t count, table.CountRows(cond->sql));
      EXPECT_EQ(count, want.size());
      ++checked;
      some_not_all += !want.empty() && want.size() < rows.size() ? 1 : 0;
    }
  }
  EXPECT_GT(checked, 1200);
  EXPECT_GT(some_not_all, 300);  // the filters do tell rows apart
}

TEST(ScanFilterTest, RandomDeletesRemoveExactlyTheMatchingRows) {
  int checked = 0;
  int some_deleted = 0;
  for (std::uint64_t seed = 1000; seed < 1200; ++seed) {
    Rng rng(seed);
    const auto rows = RandomTableRows(rng);
    WriteSpec spec;
    spec.stats = Chance(rng, 0.5);
    Table table = Unwrap(
        WriteInGroups(MemoryLocation(), rows, static_cast<std::size_t>(Uniform(rng, 1, 6)), spec));
    CondMaker maker(rows, rng);
    auto cond = Combine([&] { return maker.ExactAtom(); }, rng, 2);
    if (!cond) continue;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + cond->sql);
    std::vector<NdRecordBatch> kept;
    for (const NdRecordBatch& row : rows) {
      if (cond->eval(row) != Truth(true)) kept.push_back(row);
    }
    const std::uint64_t version = table.version();
    LND_ASSERT_OK_AND_ASSIGN(std::uint64_t deleted, table.Delete(cond->sql));
    EXPECT_EQ(deleted, rows.size() - kept.size());
    EXPECT_EQ(table.version(), deleted == 0 ? version : version + 1);
    LND_ASSERT_OK_AND_ASSIGN(auto got, table.Scan().ReadAll());
    ExpectRowsEqual(got, kept);
    ++checked;
    some_deleted += deleted > 0 ? 1 : 0;
  }
  EXPECT_GT(checked, 150);
  EXPECT_GT(some_deleted, 50);
}

TEST(ScanPruneTest, PruningNeverLosesARowWithAMatchingValue) {
  int checked = 0;
  int skipped_some = 0;
  for (std::uint64_t seed = 2000; seed < 2400; ++seed) {
    Rng rng(seed);
    const auto rows = RandomTableRows(rng);
    WriteSpec spec;
    spec.stats = true;
    const Table table = Unwrap(
        WriteInGroups(MemoryLocation(), rows, static_cast<std::size_t>(Uniform(rng, 1, 6)), spec));
    CondMaker maker(rows, rng);
    for (int k = 0; k < 4; ++k) {
      auto cond =
          Combine([&] { return Chance(rng, 0.7) ? maker.ValueAtom() : maker.ExactAtom(); }, rng, 2);
      if (!cond) continue;
      SCOPED_TRACE("seed " + std::to_string(seed) + ": " + cond->sql);
      LND_ASSERT_OK_AND_ASSIGN(auto got, table.Scan().Prune(cond->sql).ReadAll());
      // Rows come back whole and in order: `got` is a subsequence of `rows`.
      std::size_t next = 0;
      for (const NdRecordBatch& g : got) {
        while (next < rows.size() && !rows[next].Equals(g)) {
          EXPECT_NE(cond->eval(rows[next]), Truth(true))
              << "row " << next << " matches but was pruned: " << rows[next].ToString();
          ++next;
        }
        ASSERT_LT(next, rows.size()) << "a returned row is not a written row: " << g.ToString();
        ++next;
      }
      for (; next < rows.size(); ++next) {
        EXPECT_NE(cond->eval(rows[next]), Truth(true))
            << "row " << next << " matches but was pruned: " << rows[next].ToString();
      }
      skipped_some += got.size() < rows.size() ? 1 : 0;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1200);
  EXPECT_GT(skipped_some, 200);  // the stats do skip rows
}

TEST(ScanPruneTest, WithoutStatsValuePartsKeepEveryRow) {
  int checked = 0;
  for (std::uint64_t seed = 3000; seed < 3100; ++seed) {
    Rng rng(seed);
    const auto rows = RandomTableRows(rng);
    const Table table = Unwrap(WriteRows(MemoryLocation(), rows));
    CondMaker maker(rows, rng);
    auto cond = Combine([&] { return maker.ValueAtom(); }, rng, 2);
    if (!cond) continue;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + cond->sql);
    LND_ASSERT_OK_AND_ASSIGN(auto got, table.Scan().Prune(cond->sql).ReadAll());
    ExpectRowsEqual(got, rows);
    ++checked;
  }
  EXPECT_GT(checked, 80);
}

// ---- the five-row fixture: station s<id>, id, time, temp in [10 id, 10 id + 5] ----

NdRecordBatch StationRow(int id) {
  nd::Attributes globals;
  globals.Set("station", "s" + std::to_string(id));
  globals.Set("id", static_cast<int64_t>(id));
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  std::vector<std::optional<int64_t>> time{100 * (id + 1)};
  arrays.emplace_back("time", nd::testing::Nd(array::MakePrimitiveArray<int64_t>(
                                                  array::Timestamp(array::TimeUnit::kNano), time),
                                              {{"t", 1}}));
  if (id != 3) {
    std::vector<std::optional<float>> temp;
    for (int i = 0; i <= 5; ++i) temp.emplace_back(static_cast<float>(10 * id + i));
    nd::Attributes attrs;
    attrs.Set("units", id == 1 ? "degF" : "degC");
    arrays.emplace_back("temp", nd::testing::Nd(nd::testing::F32(temp), {{"t", 6}}, attrs));
  }
  return Unwrap(NdRecordBatch::FromArrays(std::move(arrays), globals));
}

struct Stations {
  std::vector<NdRecordBatch> rows;
  std::optional<Table> table;
};

Stations StationTable(bool stats = true) {
  Stations s;
  for (int id = 0; id < 5; ++id) s.rows.push_back(StationRow(id));
  WriteSpec spec;
  spec.stats = stats;
  s.table = Unwrap(WriteInGroups(MemoryLocation(), s.rows, 2, spec));
  return s;
}

std::vector<std::string> StationNames(const std::vector<NdRecordBatch>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.attributes().GetString("station").value_or("?"));
  return out;
}

using Names = std::vector<std::string>;

TEST(ScanFilterTest, FiltersOnGlobalAttributesAttributesAndWholeVariables) {
  const Stations s = StationTable();
  auto pick = [&](const std::string& sql) {
    return StationNames(Unwrap(s.table->Scan().Filter(sql).ReadAll()));
  };
  EXPECT_EQ(pick("__global_attrs__.station = 's2'"), (Names{"s2"}));
  EXPECT_EQ(pick("temp.attrs.units = 'degF'"), (Names{"s1"}));
  EXPECT_EQ(pick("temp.attrs.units <> 'degF'"), (Names{"s0", "s2", "s4"}));
  EXPECT_EQ(pick("temp IS NULL"), (Names{"s3"}));
  EXPECT_EQ(pick("temp IS NOT NULL AND __global_attrs__.id >= 2"), (Names{"s2", "s4"}));
  EXPECT_EQ(pick("array_has(temp.values, 41)"), (Names{"s4"}));
  EXPECT_EQ(pick("NOT (temp.attrs.units = 'degC') OR __global_attrs__.id = 0"),
            (Names{"s0", "s1"}));
  // Top-level names match ignoring case, as in LanceDB; filters without columns work too.
  EXPECT_EQ(pick("TEMP.attrs.units = 'degF'"), (Names{"s1"}));
  EXPECT_EQ(pick("true"), (Names{"s0", "s1", "s2", "s3", "s4"}));
  EXPECT_EQ(pick("1 = 2"), (Names{}));
  // Rows come back whole.
  const auto rows = Unwrap(s.table->Scan().Filter("__global_attrs__.id = 4").ReadAll());
  ExpectRowsEqual(rows, {s.rows[4]});
}

TEST(ScanPruneTest, PruneSkipsRowsTheStatsRuleOutAndReturnsTheRestWhole) {
  const Stations s = StationTable();
  auto prune = [&](const std::string& sql) {
    return StationNames(Unwrap(s.table->Scan().Prune(sql).ReadAll()));
  };
  // max > 22: rows 2 (20..25) and 4 (40..45); row 3 has no temp and is skipped.
  EXPECT_EQ(prune("temp.values > 22"), (Names{"s2", "s4"}));
  EXPECT_EQ(prune("temp.values BETWEEN 14 AND 21"), (Names{"s1", "s2"}));
  EXPECT_EQ(prune("temp.values IN (3, 44)"), (Names{"s0", "s4"}));
  // An attribute part stays exact; with AND the value part still prunes.
  EXPECT_EQ(prune("temp.values > 12 AND temp.attrs.units = 'degC'"), (Names{"s2", "s4"}));
  // OR with a part that has no stats form keeps every row.
  EXPECT_EQ(prune("temp.values > 12 OR array_length(temp.values) > 100").size(), 5u);
  // A row that passes is returned in full (values outside the range included).
  const auto rows = Unwrap(s.table->Scan().Prune("temp.values >= 45").ReadAll());
  ExpectRowsEqual(rows, {s.rows[4]});
  // Timestamp stats.
  EXPECT_EQ(prune("time.values > CAST('1970-01-01 00:00:00.000000250' AS TIMESTAMP(9))"),
            (Names{"s2", "s3", "s4"}));
}

TEST(ScanPruneTest, FilterAndPruneCombine) {
  const Stations s = StationTable();
  Scanner scan = s.table->Scan();
  scan.Prune("temp.values > 12").Filter("temp.attrs.units = 'degC'");
  EXPECT_EQ(StationNames(Unwrap(scan.ReadAll())), (Names{"s2", "s4"}));
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t count, scan.CountRows());
  EXPECT_EQ(count, 2u);
  scan.Limit(1);
  EXPECT_EQ(StationNames(Unwrap(scan.ReadAll())), (Names{"s2"}));
  LND_ASSERT_OK_AND_ASSIGN(count, scan.CountRows());
  EXPECT_EQ(count, 1u);
}

TEST(ScanPruneTest, ATableWithoutStatsKeepsEveryRow) {
  const Stations s = StationTable(/*stats=*/false);
  LND_ASSERT_OK_AND_ASSIGN(auto rows, s.table->Scan().Prune("temp.values > 1000").ReadAll());
  ExpectRowsEqual(rows, s.rows);
}

TEST(ScanFilterTest, FewRowsOfALargeFragmentAreTakenByIndex) {
  std::vector<NdRecordBatch> rows;
  for (int id = 0; id < 5; ++id) rows.push_back(StationRow(id));
  std::vector<NdRecordBatch> many;
  for (int k = 0; k < 12; ++k) many.insert(many.end(), rows.begin(), rows.end());
  const Table table = Unwrap(WriteRows(MemoryLocation(), many));  // one fragment of 60 rows
  for (std::int64_t batch_rows : {1, 2, 7, 256}) {
    for (std::uint64_t limit : {2u, 5u, 100u}) {
      SCOPED_TRACE(std::to_string(batch_rows) + " " + std::to_string(limit));
      Scanner scan = table.Scan();
      scan.Filter("__global_attrs__.id = 1").BatchRows(batch_rows).Limit(limit);
      LND_ASSERT_OK_AND_ASSIGN(auto got, scan.ReadAll());
      ExpectRowsEqual(got, std::vector<NdRecordBatch>(std::min<std::uint64_t>(limit, 12), rows[1]));
    }
  }
  // Most rows pass: the fragment is read whole.
  LND_ASSERT_OK_AND_ASSIGN(auto most, table.Scan().Filter("__global_attrs__.id <> 3").ReadAll());
  ASSERT_EQ(most.size(), 48u);
  for (std::size_t i = 0; i < most.size(); ++i) {
    const std::size_t id = i % 4 < 3 ? i % 4 : 4;
    EXPECT_TRUE(most[i].Equals(rows[id])) << i;
  }
}

TEST(ScanFilterTest, FilterWithProjectionAndLimit) {
  const Stations s = StationTable();
  LND_ASSERT_OK_AND_ASSIGN(
      auto rows,
      s.table->Scan().Filter("temp.attrs.units = 'degC'").Project({"time"}).Limit(2).ReadAll());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(StationNames(rows), (Names{"s0", "s2"}));
  for (const auto& r : rows) {
    ASSERT_EQ(r.num_columns(), 1);
    EXPECT_EQ(r.column_name(0), "time");
  }
  LND_ASSERT_OK_AND_ASSIGN(auto none, s.table->Scan().Filter("temp.attrs.units = 'K'").ReadAll());
  EXPECT_TRUE(none.empty());
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t all, s.table->CountRows());
  EXPECT_EQ(all, 5u);
}

TEST(ScanFilterTest, ParseAndBindErrorsGiveThePositionAndTheColumns) {
  const Stations s = StationTable();
  const Status parse = s.table->Scan().Filter("temp.attrs.units = = 'x'").Open().status();
  EXPECT_EQ(parse.code(), StatusCode::kInvalidArgument) << parse.ToString();
  EXPECT_EQ(parse.detail().kind, ErrorKind::kParseError) << parse.ToString();
  EXPECT_NE(std::string(parse.message()).find("position"), std::string::npos) << parse.ToString();
  const Status bind = s.table->Scan().Filter("pressure.values > 3").ReadAll().status();
  EXPECT_EQ(bind.code(), StatusCode::kInvalidArgument) << bind.ToString();
  EXPECT_EQ(bind.detail().kind, ErrorKind::kParseError) << bind.ToString();
  EXPECT_NE(std::string(bind.message()).find("pressure"), std::string::npos) << bind.ToString();
  EXPECT_NE(std::string(bind.message()).find("temp"), std::string::npos) << bind.ToString();
  LND_EXPECT_ERROR(s.table->CountRows("nope = 1"), StatusCode::kInvalidArgument, "nope");
  Table writable = *s.table;
  LND_EXPECT_ERROR(writable.Delete("nope = 1"), StatusCode::kInvalidArgument, "nope");
  LND_EXPECT_ERROR(s.table->Scan().Prune("(((").CountRows(), StatusCode::kInvalidArgument,
                   "position");
}

TEST(ScanFilterTest, AKeyAddedAfterDataWasWrittenFiltersOnOldFragments) {
  // Rows 0-2 are written without the attribute `source` and the global `origin`; rows 3-5
  // bring both (the table's attrs structs grow new children; old fragments read them as null).
  std::vector<NdRecordBatch> rows;
  for (int id = 0; id < 6; ++id) {
    nd::Attributes attrs;
    attrs.Set("units", "K");
    nd::Attributes globals;
    globals.Set("id", static_cast<int64_t>(id));
    if (id >= 3) {
      attrs.Set("source", id == 4 ? "model" : "buoy");
      globals.Set("origin", id == 5 ? "ship" : "land");
    }
    rows.push_back(Unwrap(NdRecordBatch::FromArrays(
        {{"sst", nd::testing::Nd(nd::testing::Iota32(3), {{"x", 3}}, attrs)}}, globals)));
  }
  const auto location = MemoryLocation();
  LND_ASSERT_OK(WriteRows(location, std::span(rows).subspan(0, 3)).status());
  LND_ASSERT_OK_AND_ASSIGN(Table table, WriteRows(location, std::span(rows).subspan(3)));
  ASSERT_EQ(table.dataset().fragments().size(), 2u);
  auto ids = [&](const std::string& sql) {
    std::vector<int64_t> out;
    for (const auto& r : Unwrap(table.Scan().Filter(sql).ReadAll())) {
      out.push_back(r.attributes().GetInt64("id").value_or(-1));
    }
    return out;
  };
  EXPECT_EQ(ids("sst.attrs.source = 'buoy'"), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(ids("sst.attrs.source IS NULL"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(ids("__global_attrs__.origin = 'land'"), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(ids("__global_attrs__.origin IS NULL OR sst.attrs.source = 'model'"),
            (std::vector<int64_t>{0, 1, 2, 4}));
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t deleted, table.Delete("sst.attrs.source IS NULL"));
  EXPECT_EQ(deleted, 3u);
  ExpectRowsEqual(Unwrap(table.Scan().ReadAll()), {rows[3], rows[4], rows[5]});
}

TEST(DeleteTest, DeleteCountsAndNoVersionWhenNothingMatches) {
  Stations s = StationTable();
  Table& table = *s.table;
  const std::uint64_t version = table.version();
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t none, table.Delete("temp.attrs.units = 'K'"));
  EXPECT_EQ(none, 0u);
  EXPECT_EQ(table.version(), version);
  // Exact per row: a value test with array_has, never the stats.
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t one, table.Delete("array_has(temp.values, 22)"));
  EXPECT_EQ(one, 1u);
  EXPECT_EQ(table.version(), version + 1);
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t two, table.Delete("temp.attrs.units = 'degC'"));
  EXPECT_EQ(two, 2u);
  EXPECT_EQ(StationNames(Unwrap(table.Scan().ReadAll())), (Names{"s1", "s3"}));
  LND_EXPECT_ERROR(table.Delete(""), StatusCode::kInvalidArgument, "empty");
  LND_ASSERT_OK_AND_ASSIGN(std::uint64_t rest, table.Delete("true"));
  EXPECT_EQ(rest, 2u);
  LND_ASSERT_OK_AND_ASSIGN(auto empty, table.Scan().ReadAll());
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(Unwrap(table.CountRows()), 0u);
}

}  // namespace
}  // namespace lance_nd
