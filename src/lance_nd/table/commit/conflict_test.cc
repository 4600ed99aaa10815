// The compatibility matrix of CheckCompatible (ours planned, theirs committed first), checked
// on seeded generated pairs of every operation against every other, and the preconditions of
// the Delete rebase.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <string_view>

#include "lance_nd/table/commit/build_manifest.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table::internal {
namespace {

// The operation kinds of the matrix, in its row / column order.
enum Kind : std::size_t {
  kAppend,
  kDelete,
  kOverwrite,
  kMerge,
  kRestore,
  kReserve,
  kRewrite,
  kProject,
  kUpdate,
  kConfig,
  kReplace,
  kIndex,
  kUnknown,
  kClone,
  kNumKinds
};

// Row = ours, column = theirs:
//   '.' compatible, 'R' retryable conflict, 'N' conflict that is not retryable,
//   'F' retryable conflict when both touch a fragment, else compatible,
//   'S' retryable conflict when their UpdateConfig changes schema or field metadata,
//   'O' retryable conflict when our UpdateConfig changes schema or field metadata,
//   'C' retryable conflict when their UpdateConfig changes the config and ours upserts some.
// Columns: Append Delete overWrite Merge resTore reserVe rewriteX Project Update confiG
//          repLace Index unKnown Clone.
constexpr std::array<std::string_view, kNumKinds> kMatrix = {
    // ADWMTVXPUGLIKC
    "..N.N.......NN",  // Append
    ".FN.N.F.F.F.NN",  // Delete
    "..N.N....C..NN",  // Overwrite
    "RRNRN.RRRSR.NN",  // Merge
    "..N.N.......NN",  // Restore
    "..............",  // ReserveFragments
    ".FNRN.F.F.FRNN",  // Rewrite
    "..NRN..R.S..NN",  // Project
    ".FNRN.FRF.F.NN",  // Update
    "..NON..O.R..NN",  // UpdateConfig
    "..NRN.FRF.F.NN",  // DataReplacement
    "NNNNN.NNNNNNNN",  // CreateIndex
    "NNNNN.NNNNNNNN",  // Unknown
    "NNNNN.NNNNNNNN",  // Clone
};

constexpr std::array<std::string_view, kNumKinds> kNames = {
    "Append",           "Delete",      "Overwrite", "Merge",  "Restore",
    "ReserveFragments", "Rewrite",     "Project",   "Update", "UpdateConfig",
    "DataReplacement",  "CreateIndex", "Unknown",   "Clone"};

// A generated transaction and what the matrix needs to know about it.
struct Generated {
  Transaction txn;
  std::set<std::uint64_t> touched;  // existing fragments modified or removed
  bool changes_schema = false;      // UpdateConfig: schema or field metadata
  bool changes_config = false;      // UpdateConfig: config updates
  bool upserts_config = false;      // Overwrite: config upserts
};

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  Generated Make(Kind kind, std::uint64_t read_version) {
    Generated g;
    g.txn.read_version = read_version;
    g.txn.uuid = "u" + std::to_string(read_version);
    g.txn.operation = MakeOperation(kind, &g);
    return g;
  }

 private:
  bool Coin() { return std::uniform_int_distribution<int>(0, 1)(rng_) == 1; }

  // One or two existing fragments out of 1..4, recorded as touched.
  std::vector<Fragment> Existing(Generated* g) {
    std::vector<Fragment> out;
    const int n = std::uniform_int_distribution<int>(1, 2)(rng_);
    for (int i = 0; i < n; ++i) {
      Fragment f;
      f.id = std::uniform_int_distribution<std::uint64_t>(1, 4)(rng_);
      f.physical_rows = 10;
      if (g->touched.insert(f.id).second) out.push_back(f);
    }
    return out;
  }

  std::vector<std::uint64_t> ExistingIds(Generated* g) {
    std::vector<std::uint64_t> ids;
    for (const Fragment& f : Existing(g)) ids.push_back(f.id);
    return ids;
  }

  static std::vector<Fragment> Fresh() {
    Fragment f;
    f.physical_rows = 3;
    return {f};
  }

  UpdateMap SomeMap() {
    return UpdateMap{{{"k", Coin() ? std::optional<std::string>("v") : std::nullopt}}, Coin()};
  }

  op::UpdateConfig MakeConfig(Generated* g) {
    op::UpdateConfig c;
    if (Coin()) c.config_updates = SomeMap();
    if (Coin()) c.table_metadata_updates = SomeMap();
    if (Coin()) c.schema_metadata_updates = SomeMap();
    if (Coin()) c.field_metadata_updates = {{0, SomeMap()}};
    g->changes_schema = c.ChangesSchemaMetadata();
    g->changes_config = c.config_updates.has_value();
    return c;
  }

  Operation MakeOperation(Kind kind, Generated* g) {
    switch (kind) {
      case kAppend:
        return op::Append{Fresh()};
      case kDelete: {
        op::Delete d;
        d.updated_fragments = Existing(g);
        if (Coin()) d.deleted_fragment_ids = ExistingIds(g);
        d.predicate = "x > 1";
        return d;
      }
      case kOverwrite: {
        op::Overwrite o{Fresh(), {LanceField{}}, {}, {}};
        if (Coin()) o.config_upserts = {{"lance.x", "1"}};
        g->upserts_config = !o.config_upserts.empty();
        return o;
      }
      case kMerge:
        return op::Merge{Fresh(), {LanceField{}}, {}};
      case kRestore:
        return op::Restore{1};
      case kReserve:
        return op::ReserveFragments{2};
      case kRewrite:
        return op::Rewrite{{RewriteGroup{Existing(g), Fresh()}}};
      case kProject:
        return op::Project{{LanceField{}}};
      case kUpdate: {
        op::Update u;
        u.updated_fragments = Existing(g);
        if (Coin()) u.removed_fragment_ids = ExistingIds(g);
        u.new_fragments = Fresh();
        return u;
      }
      case kConfig:
        return MakeConfig(g);
      case kReplace: {
        op::DataReplacement r;
        for (const Fragment& f : Existing(g)) r.replacements.push_back({f.id, DataFile{}});
        return r;
      }
      case kIndex:
        return op::CreateIndex{1, 0};
      case kUnknown:
        return op::Unknown{Coin() ? 116u : 0u};
      case kClone:
        return op::Unknown{113};
      case kNumKinds:
        break;
    }
    return op::Unknown{};
  }

  std::mt19937 rng_;
};

bool Shares(const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
  return std::any_of(a.begin(), a.end(), [&](std::uint64_t id) { return b.count(id) != 0; });
}

// What the matrix says for the pair: nullopt = compatible, else whether the conflict is
// retryable.
std::optional<bool> Expected(Kind ours, Kind theirs, const Generated& o, const Generated& t) {
  switch (kMatrix[ours][theirs]) {
    case 'R':
      return true;
    case 'N':
      return false;
    case 'F':
      return Shares(o.touched, t.touched) ? std::optional<bool>(true) : std::nullopt;
    case 'S':
      return t.changes_schema ? std::optional<bool>(true) : std::nullopt;
    case 'O':
      return o.changes_schema ? std::optional<bool>(true) : std::nullopt;
    case 'C':
      return t.changes_config && o.upserts_config ? std::optional<bool>(true) : std::nullopt;
    default:
      return std::nullopt;
  }
}

TEST(TableConflict, GeneratedPairsFollowTheCompatibilityMatrix) {
  constexpr std::uint32_t kSeed = 20261202;
  Generator gen(kSeed);
  std::mt19937 pick(kSeed + 1);
  std::set<std::pair<Kind, Kind>> cells;
  std::set<std::pair<Kind, char>> outcomes;
  for (int i = 0; i < 6000; ++i) {
    std::uniform_int_distribution<std::size_t> kinds(0, kNumKinds - 1);
    const auto ours = static_cast<Kind>(kinds(pick));
    const auto theirs = static_cast<Kind>(kinds(pick));
    const Generated o = gen.Make(ours, 3);
    const Generated t = gen.Make(theirs, 5);
    SCOPED_TRACE("seed " + std::to_string(kSeed) + ", pair " + std::to_string(i) + ": ours " +
                 std::string(kNames[ours]) + ", theirs " + std::string(kNames[theirs]));
    ASSERT_EQ(o.txn.name(), kNames[ours]);
    ASSERT_EQ(t.txn.name(), kNames[theirs]);
    cells.insert({ours, theirs});
    const std::optional<bool> expected = Expected(ours, theirs, o, t);
    const Status st = CheckCompatible(o.txn, t.txn, 9);
    outcomes.insert({ours, expected ? (*expected ? 'R' : 'N') : '.'});
    if (!expected) {
      EXPECT_TRUE(st.ok()) << st.ToString();
      continue;
    }
    std::string their_name(kNames[theirs]);
    const auto* unknown = t.txn.get<op::Unknown>();
    if (theirs == kUnknown && unknown->field_number != 0) {
      their_name += " (transaction field " + std::to_string(unknown->field_number) + ")";
    }
    LND_EXPECT_ERROR(st, StatusCode::kCommitConflict,
                     "commit conflict: version 9 was committed by a " + their_name +
                         " operation after this " + std::string(kNames[ours]) +
                         " was planned at version 3, and ");
    EXPECT_EQ(st.retryable(), *expected);
    EXPECT_NE(st.message().find(*expected ? "; reload the table and retry the operation"
                                          : "; the operation must be planned again"),
              std::string::npos)
        << st.message();
  }
  // Every cell of the matrix was generated, and the data-dependent ones both ways.
  EXPECT_EQ(cells.size(), std::size_t{kNumKinds} * kNumKinds);
  for (Kind k : {kDelete, kUpdate, kRewrite, kReplace, kMerge, kProject, kConfig, kOverwrite}) {
    EXPECT_TRUE(outcomes.count({k, '.'}) && outcomes.count({k, 'R'})) << kNames[k];
  }
}

TEST(TableConflict, TouchedFragmentIdsPerOperation) {
  Generator gen(7);
  for (std::size_t kind = 0; kind < kNumKinds; ++kind) {
    const Generated g = gen.Make(static_cast<Kind>(kind), 1);
    EXPECT_EQ(g.txn.TouchedFragmentIds(),
              std::vector<std::uint64_t>(g.touched.begin(), g.touched.end()))
        << kNames[kind];
  }
}

TEST(TableConflict, DeleteRebaseNeedsDeletes) {
  Transaction append;
  append.operation = op::Append{};
  append.read_version = 1;
  LND_EXPECT_ERROR(DeletionsToMerge(append, op::Delete{}, 2), StatusCode::kInternal,
                   "deletion vectors to merge for a Append transaction");
  const TableLocation location(io::MakeMemoryFileSystem(), "t");
  LND_EXPECT_ERROR(MergeDeletions(location, Manifest{}, {1}, &append), StatusCode::kInternal,
                   "merging deletion vectors into a Append transaction");
}

TEST(TableConflict, DeleteRebaseConflictsOnRemovedFragments) {
  Fragment f;
  f.id = 4;
  f.physical_rows = 10;
  Transaction ours;
  ours.read_version = 2;
  ours.operation = op::Delete{{f}, {6}, ""};
  LND_EXPECT_ERROR(DeletionsToMerge(ours, op::Delete{{}, {4}, ""}, 3), StatusCode::kCommitConflict,
                   "version 3 was committed by a Delete operation after this Delete was planned "
                   "at version 2, and it removed fragment 4 (all its rows deleted)");
  LND_EXPECT_ERROR(DeletionsToMerge(ours, op::Delete{{}, {6}, ""}, 3), StatusCode::kCommitConflict,
                   "and both removed fragment 6");
  LND_ASSERT_OK_AND_ASSIGN(auto ids, DeletionsToMerge(ours, op::Delete{{f}, {}, ""}, 3));
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{4}));
  Manifest latest;
  latest.version = 3;
  const TableLocation location(io::MakeMemoryFileSystem(), "t");
  auto st = MergeDeletions(location, latest, {4}, &ours);
  LND_EXPECT_ERROR(st, StatusCode::kCommitConflict,
                   "fragment 4 modified by this Delete (planned at version 2) is no longer in "
                   "version 3");
  EXPECT_TRUE(st.retryable());
  f.physical_rows = 12;
  latest.fragments = {f};
  LND_EXPECT_ERROR(MergeDeletions(location, latest, {4}, &ours), StatusCode::kCommitConflict,
                   "fragment 4 has 12 rows in version 3 but 10 when this Delete was planned");
}

}  // namespace
}  // namespace lance_nd::table::internal
