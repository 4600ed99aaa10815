// Encoding stable row id sequences and version runs as Lance 12 does (see row_id_codec.h).
#include "lance_nd/table/rowids/row_id_codec.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "lance_nd/table/rowids/row_ids.h"
#include "rowids.pb.h"
#include "table.pb.h"

namespace lance_nd::table::internal {
namespace {

using lance::table::EncodedU64Array;
using lance::table::U64Segment;

template <typename Word>
std::string PackLe(const std::vector<std::uint64_t>& values, std::uint64_t base) {
  std::string out;
  out.reserve(values.size() * sizeof(Word));
  for (std::uint64_t v : values) {
    const std::uint64_t x = v - base;
    for (std::size_t b = 0; b < sizeof(Word); ++b) {
      out.push_back(static_cast<char>((x >> (8 * b)) & 0xffu));
    }
  }
  return out;
}

// Lance's EncodedU64Array::from(Vec<u64>): offsets from the minimum in the narrowest width.
void EncodeArray(const std::vector<std::uint64_t>& values, EncodedU64Array* out) {
  if (values.empty()) {
    out->mutable_u64_array();  // present but empty
    return;
  }
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const std::uint64_t base = *lo;
  const std::uint64_t spread = *hi - *lo;
  if (spread <= std::numeric_limits<std::uint16_t>::max()) {
    out->mutable_u16_array()->set_base(base);
    out->mutable_u16_array()->set_offsets(PackLe<std::uint16_t>(values, base));
  } else if (spread <= std::numeric_limits<std::uint32_t>::max()) {
    out->mutable_u32_array()->set_base(base);
    out->mutable_u32_array()->set_offsets(PackLe<std::uint32_t>(values, base));
  } else {
    out->mutable_u64_array()->set_values(PackLe<std::uint64_t>(values, 0));
  }
}

struct Stats {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::uint64_t count = 0;
  bool sorted = true;
};

// Lance's compute_stats (a value equal to the running maximum does not break sortedness).
Stats ComputeStats(const SegmentValues& values) {
  Stats s;
  if (values.empty()) return s;
  s.min = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t v : values) {
    ++s.count;
    s.min = std::min(s.min, v);
    if (s.count > 1 && v < s.max) s.sorted = false;
    s.max = std::max(s.max, v);
  }
  return s;
}

bool IsRange(const SegmentValues& values) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i] != values[i - 1] + 1) return false;
  }
  return true;
}

// Values of [min, max] missing from the sorted `values`.
std::vector<std::uint64_t> Holes(const SegmentValues& values, std::uint64_t min,
                                 std::uint64_t max) {
  std::vector<std::uint64_t> holes;
  std::size_t i = 0;
  for (std::uint64_t v = min;; ++v) {
    while (i < values.size() && values[i] < v) ++i;
    if (i >= values.size() || values[i] != v) holes.push_back(v);
    if (v == max) break;
  }
  return holes;
}

void EncodeSegment(const SegmentValues& values, U64Segment* out) {
  const Stats s = ComputeStats(values);
  // (Row ids are distinct; repeated values, which Lance never writes, go to an Array.)
  if (!s.sorted || (s.count > 0 && s.count - 1 > s.max - s.min)) {
    EncodeArray(values, out->mutable_array());
    return;
  }
  if (s.count == 0) {
    out->mutable_range();  // Range(0..0)
    return;
  }
  const std::uint64_t slots = s.max - s.min + 1;
  const std::uint64_t n_holes = slots - s.count;
  if (n_holes == 0) {
    out->mutable_range()->set_start(s.min);
    out->mutable_range()->set_end(s.max + 1);
    return;
  }
  const std::uint64_t with_holes = 24 + 4 * n_holes;
  const std::uint64_t with_bitmap = 24 + (slots + 7) / 8;
  const std::uint64_t sorted_array = 24 + 2 * s.count;
  const std::uint64_t best = std::min({with_holes, with_bitmap, sorted_array});
  if (best == with_holes) {
    auto* r = out->mutable_range_with_holes();
    r->set_start(s.min);
    r->set_end(s.max + 1);
    EncodeArray(Holes(values, s.min, s.max), r->mutable_holes());
  } else if (best == with_bitmap) {
    auto* r = out->mutable_range_with_bitmap();
    r->set_start(s.min);
    r->set_end(s.max + 1);
    std::string bits(static_cast<std::size_t>((slots + 7) / 8), '\0');
    for (std::uint64_t v : values) {
      const std::uint64_t i = v - s.min;
      bits[static_cast<std::size_t>(i / 8)] = static_cast<char>(
          static_cast<unsigned char>(bits[static_cast<std::size_t>(i / 8)]) | (1u << (i % 8)));
    }
    r->set_bitmap(std::move(bits));
  } else {
    EncodeArray(values, out->mutable_sorted_array());
  }
}

// Remove sorted `positions` (offsets into the concatenation of the lists' values).
template <typename Item, typename ValuesOf>
void MaskItems(std::vector<Item>* items, std::span<const std::uint64_t> positions,
               ValuesOf values_of) {
  std::size_t p = 0;
  std::uint64_t offset = 0;
  for (Item& item : *items) {
    SegmentValues& values = values_of(item);
    const std::uint64_t len = values.size();
    while (p < positions.size() && positions[p] < offset) ++p;  // duplicates
    if (p < positions.size() && positions[p] < offset + len) {
      SegmentValues kept;
      kept.reserve(values.size());
      for (std::uint64_t i = 0; i < len; ++i) {
        while (p < positions.size() && positions[p] < offset + i) ++p;
        if (p < positions.size() && positions[p] == offset + i) continue;
        kept.push_back(values[static_cast<std::size_t>(i)]);
      }
      values = std::move(kept);
    }
    offset += len;
  }
  std::erase_if(*items, [&](Item& item) { return values_of(item).empty(); });
}

// Lance's rechunk over items holding value lists: `emit(chunk, item, begin, end)` is called for
// every piece [begin, end) of an item that goes to chunk `chunk`, in order.
template <typename Item, typename ValuesOf, typename Emit>
Status Rechunk(const std::vector<Item>& items, std::span<const std::uint64_t> chunk_sizes,
               ValuesOf values_of, Emit emit, const char* what) {
  std::size_t item = 0;
  std::uint64_t item_offset = 0;
  for (std::size_t chunk = 0; chunk < chunk_sizes.size(); ++chunk) {
    std::uint64_t remaining = chunk_sizes[chunk];
    while (remaining > 0) {
      if (item >= items.size()) {
        return Status::InvalidArgument(
            std::string("too few ") + what + " for new fragment " + std::to_string(chunk) + " of " +
            std::to_string(chunk_sizes[chunk]) + " rows (" + std::to_string(remaining) +
            " rows missing); the old fragments hold fewer live rows than the new ones");
      }
      const std::uint64_t len = values_of(items[item]).size();
      const std::uint64_t left = len - item_offset;
      if (left == 0) {
        ++item;
        item_offset = 0;
        continue;
      }
      const std::uint64_t take = std::min(left, remaining);
      emit(chunk, items[item], item_offset, item_offset + take);
      remaining -= take;
      item_offset += take;
      if (item_offset == len) {
        ++item;
        item_offset = 0;
      }
    }
  }
  while (item < items.size() && values_of(items[item]).size() == item_offset) {
    ++item;
    item_offset = 0;
  }
  if (item < items.size()) {
    return Status::InvalidArgument(std::string("too many ") + what + " for " +
                                   std::to_string(chunk_sizes.size()) +
                                   " new fragments: the old fragments hold more live rows than "
                                   "the new ones");
  }
  return Status::OK();
}

SegmentValues Slice(const SegmentValues& v, std::uint64_t begin, std::uint64_t end) {
  return SegmentValues(v.begin() + static_cast<std::ptrdiff_t>(begin),
                       v.begin() + static_cast<std::ptrdiff_t>(end));
}

}  // namespace

std::string EncodeRowIdSegments(const SegmentList& segments) {
  lance::table::RowIdSequence seq;
  for (const SegmentValues& s : segments) EncodeSegment(s, seq.add_segments());
  return seq.SerializeAsString();
}

std::string EncodeRowIdRange(std::uint64_t start, std::uint64_t end) {
  lance::table::RowIdSequence seq;
  auto* r = seq.add_segments()->mutable_range();
  r->set_start(start);
  r->set_end(end);
  return seq.SerializeAsString();
}

void MaskSegments(SegmentList* segments, std::span<const std::uint64_t> positions) {
  MaskItems(segments, positions, [](SegmentValues& s) -> SegmentValues& { return s; });
}

Result<std::vector<SegmentList>> RechunkSegments(const SegmentList& segments,
                                                 std::span<const std::uint64_t> chunk_sizes) {
  std::vector<SegmentList> out(chunk_sizes.size());
  LND_RETURN_NOT_OK(Rechunk(
      segments, chunk_sizes, [](const SegmentValues& s) -> const SegmentValues& { return s; },
      [&](std::size_t chunk, const SegmentValues& s, std::uint64_t b, std::uint64_t e) {
        SegmentValues piece = Slice(s, b, e);
        SegmentList& list = out[chunk];
        // RowIdSequence::extend: a Range followed by the Range starting at its end merge.
        if (!list.empty() && !list.back().empty() && IsRange(list.back()) && IsRange(piece) &&
            list.back().back() + 1 == piece.front()) {
          list.back().insert(list.back().end(), piece.begin(), piece.end());
        } else {
          list.push_back(std::move(piece));
        }
      },
      "row ids"));
  return out;
}

std::string EncodeVersionRuns(const VersionRuns& runs) {
  lance::table::RowDatasetVersionSequence seq;
  for (const VersionRun& r : runs) {
    auto* run = seq.add_runs();
    EncodeSegment(r.span, run->mutable_span());
    run->set_version(r.version);
  }
  return seq.SerializeAsString();
}

VersionRuns UniformVersionRuns(std::uint64_t rows, std::uint64_t version) {
  if (rows == 0) return {};
  VersionRun run;
  run.span.resize(static_cast<std::size_t>(rows));
  for (std::uint64_t i = 0; i < rows; ++i) run.span[static_cast<std::size_t>(i)] = i;
  run.version = version;
  return {std::move(run)};
}

std::string EncodeUniformVersionRuns(std::uint64_t rows, std::uint64_t version) {
  lance::table::RowDatasetVersionSequence seq;
  if (rows > 0) {
    auto* run = seq.add_runs();
    run->mutable_span()->mutable_range()->set_start(0);
    run->mutable_span()->mutable_range()->set_end(rows);
    run->set_version(version);
  }
  return seq.SerializeAsString();
}

void MaskVersionRuns(VersionRuns* runs, std::span<const std::uint64_t> positions) {
  MaskItems(runs, positions, [](VersionRun& r) -> SegmentValues& { return r.span; });
}

Result<std::vector<VersionRuns>> RechunkVersionRuns(const VersionRuns& runs,
                                                    std::span<const std::uint64_t> chunk_sizes) {
  std::vector<VersionRuns> out(chunk_sizes.size());
  LND_RETURN_NOT_OK(Rechunk(
      runs, chunk_sizes, [](const VersionRun& r) -> const SegmentValues& { return r.span; },
      [&](std::size_t chunk, const VersionRun& r, std::uint64_t b, std::uint64_t e) {
        out[chunk].push_back({Slice(r.span, b, e), r.version});
      },
      "version runs"));
  return out;
}

Result<FragmentRowIdMeta> ReadFragmentRowIdMeta(const TableLocation& location,
                                                const Fragment& fragment) {
  FragmentRowIdMeta out;
  if (!fragment.has_row_ids) return out;
  lance::table::DataFragment proto;
  if (!proto.ParseFromString(fragment.unmodelled_proto)) {
    return Status::Corrupt("fragment " + std::to_string(fragment.id) +
                           ": its stored row id members do not parse");
  }
  if (proto.row_id_sequence_case() == lance::table::DataFragment::kInlineRowIds) {
    LND_ASSIGN_OR_RETURN(out.row_ids, DecodeRowIdSegments(proto.inline_row_ids(), fragment.id,
                                                          fragment.physical_rows));
  } else {
    // External file (or damaged): read through the validated flat reader, one segment.
    LND_ASSIGN_OR_RETURN(FragmentRowIds ids, ReadFragmentRowIds(location, fragment));
    out.row_ids.push_back(std::move(ids.ids));
  }
  out.has_row_ids = true;
  auto versions = [&](bool inline_set, bool external_set, const std::string& bytes,
                      const char* name, bool* has, VersionRuns* runs) -> Status {
    if (external_set) {
      return Status::NotImplemented("fragment " + std::to_string(fragment.id) + " keeps its " +
                                    name +
                                    " versions in an external file, which lance-nd cannot "
                                    "read yet; use the Lance engine for this operation");
    }
    if (!inline_set) return Status::OK();
    LND_ASSIGN_OR_RETURN(*runs, DecodeVersionRuns(bytes, fragment.id, fragment.physical_rows));
    *has = true;
    return Status::OK();
  };
  using F = lance::table::DataFragment;
  LND_RETURN_NOT_OK(versions(
      proto.created_at_version_sequence_case() == F::kInlineCreatedAtVersions,
      proto.created_at_version_sequence_case() == F::kExternalCreatedAtVersions,
      proto.inline_created_at_versions(), "created_at", &out.has_created_at, &out.created_at));
  LND_RETURN_NOT_OK(
      versions(proto.last_updated_at_version_sequence_case() == F::kInlineLastUpdatedAtVersions,
               proto.last_updated_at_version_sequence_case() == F::kExternalLastUpdatedAtVersions,
               proto.inline_last_updated_at_versions(), "last_updated_at", &out.has_last_updated_at,
               &out.last_updated_at));
  return out;
}

Status SetFragmentRowIdMeta(Fragment* fragment, const std::string& row_ids,
                            const std::string* created_at, const std::string* last_updated_at) {
  lance::table::DataFragment proto;
  if (!proto.ParseFromString(fragment->unmodelled_proto)) {
    return Status::Corrupt("fragment " + std::to_string(fragment->id) +
                           ": its stored row id members do not parse");
  }
  proto.set_inline_row_ids(row_ids);
  if (created_at != nullptr) {
    proto.set_inline_created_at_versions(*created_at);
  } else {
    proto.clear_created_at_version_sequence();
  }
  if (last_updated_at != nullptr) {
    proto.set_inline_last_updated_at_versions(*last_updated_at);
  } else {
    proto.clear_last_updated_at_version_sequence();
  }
  fragment->unmodelled_proto = proto.SerializeAsString();
  fragment->has_row_ids = true;
  return Status::OK();
}

}  // namespace lance_nd::table::internal
