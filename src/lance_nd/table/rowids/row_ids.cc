// Decoding stable row id sequences (see row_ids.h).
#include "lance_nd/table/rowids/row_ids.h"

#include <limits>
#include <utility>

#include "lance_nd/table/rowids/row_id_codec.h"

#include "rowids.pb.h"
#include "table.pb.h"

namespace lance_nd::table::internal {
namespace {

using lance::table::EncodedU64Array;
using lance::table::U64Segment;

// Expands segments into `out`, never past `limit` values (the fragment's physical rows).
class Decoder {
 public:
  Decoder(std::uint64_t fragment_id, std::uint64_t limit, std::vector<std::uint64_t>* out)
      : fragment_id_(fragment_id), limit_(limit), out_(out) {}

  Status Corrupt(std::size_t segment, const std::string& what) const {
    return Status::Corrupt("row id sequence of fragment " + std::to_string(fragment_id_) +
                           ", segment " + std::to_string(segment) + ": " + what +
                           "; the table's fragment metadata is damaged");
  }

  // Room for `n` more ids?
  Status Reserve(std::size_t segment, std::uint64_t n) const {
    if (n > limit_ - out_->size()) {
      return Corrupt(segment, "holds more row ids than the fragment's " + std::to_string(limit_) +
                                  " physical rows");
    }
    return Status::OK();
  }

  Status CheckRange(std::size_t s, std::uint64_t start, std::uint64_t end) const {
    if (end < start) {
      return Corrupt(
          s, "range end " + std::to_string(end) + " is before its start " + std::to_string(start));
    }
    return Status::OK();
  }

  // Values of an EncodedU64Array appended to `vals`.
  Status DecodeArray(std::size_t s, const EncodedU64Array& a, std::vector<std::uint64_t>* vals,
                     std::uint64_t max_count) const {
    auto words = [&](const std::string& bytes, std::size_t width, std::uint64_t base,
                     const char* name) -> Status {
      if (bytes.size() % width != 0) {
        return Corrupt(s, std::string(name) + " array of " + std::to_string(bytes.size()) +
                              " bytes is not a multiple of " + std::to_string(width));
      }
      const std::size_t n = bytes.size() / width;
      if (n > max_count) {
        return Corrupt(s, "holds more row ids than the fragment's " + std::to_string(limit_) +
                              " physical rows");
      }
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t v = 0;
        for (std::size_t b = 0; b < width; ++b) {
          v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i * width + b]))
               << (8 * b);
        }
        if (v > std::numeric_limits<std::uint64_t>::max() - base) {
          return Corrupt(s, std::string(name) + " value overflows: base " + std::to_string(base) +
                                " + offset " + std::to_string(v));
        }
        vals->push_back(base + v);
      }
      return Status::OK();
    };
    switch (a.array_case()) {
      case EncodedU64Array::kU16Array:
        return words(a.u16_array().offsets(), 2, a.u16_array().base(), "u16");
      case EncodedU64Array::kU32Array:
        return words(a.u32_array().offsets(), 4, a.u32_array().base(), "u32");
      case EncodedU64Array::kU64Array:
        return words(a.u64_array().values(), 8, 0, "u64");
      default:
        return Corrupt(s, "encoded array has no values (unknown or unset encoding)");
    }
  }

  Status Segment(std::size_t s, const U64Segment& seg) {
    const std::uint64_t room = limit_ - out_->size();
    switch (seg.segment_case()) {
      case U64Segment::kRange: {
        const auto& r = seg.range();
        LND_RETURN_NOT_OK(CheckRange(s, r.start(), r.end()));
        LND_RETURN_NOT_OK(Reserve(s, r.end() - r.start()));
        for (std::uint64_t v = r.start(); v < r.end(); ++v) out_->push_back(v);
        return Status::OK();
      }
      case U64Segment::kRangeWithHoles: {
        const auto& r = seg.range_with_holes();
        LND_RETURN_NOT_OK(CheckRange(s, r.start(), r.end()));
        std::vector<std::uint64_t> holes;
        LND_RETURN_NOT_OK(DecodeArray(s, r.holes(), &holes, r.end() - r.start()));
        for (std::size_t i = 0; i < holes.size(); ++i) {
          if (holes[i] < r.start() || holes[i] >= r.end() || (i > 0 && holes[i] <= holes[i - 1])) {
            return Corrupt(s, "hole " + std::to_string(holes[i]) + " is outside the range [" +
                                  std::to_string(r.start()) + ", " + std::to_string(r.end()) +
                                  ") or not in increasing order");
          }
        }
        LND_RETURN_NOT_OK(Reserve(s, r.end() - r.start() - holes.size()));
        std::size_t h = 0;
        for (std::uint64_t v = r.start(); v < r.end(); ++v) {
          if (h < holes.size() && holes[h] == v) {
            ++h;
            continue;
          }
          out_->push_back(v);
        }
        return Status::OK();
      }
      case U64Segment::kRangeWithBitmap: {
        const auto& r = seg.range_with_bitmap();
        LND_RETURN_NOT_OK(CheckRange(s, r.start(), r.end()));
        const std::uint64_t len = r.end() - r.start();
        const std::string& bits = r.bitmap();
        if (bits.size() != (len + 7) / 8) {
          return Corrupt(s, "bitmap of " + std::to_string(bits.size()) + " bytes for a range of " +
                                std::to_string(len) + " values (expected " +
                                std::to_string((len + 7) / 8) + " bytes)");
        }
        std::uint64_t ones = 0;
        for (std::uint64_t i = 0; i < len; ++i) {
          ones += (static_cast<unsigned char>(bits[i / 8]) >> (i % 8)) & 1u;
        }
        LND_RETURN_NOT_OK(Reserve(s, ones));
        for (std::uint64_t i = 0; i < len; ++i) {
          if ((static_cast<unsigned char>(bits[i / 8]) >> (i % 8)) & 1u) {
            out_->push_back(r.start() + i);
          }
        }
        return Status::OK();
      }
      case U64Segment::kSortedArray: {
        const std::size_t first = out_->size();
        LND_RETURN_NOT_OK(DecodeArray(s, seg.sorted_array(), out_, room));
        for (std::size_t i = first + 1; i < out_->size(); ++i) {
          if ((*out_)[i] <= (*out_)[i - 1]) {
            return Corrupt(s, "sorted array is not strictly increasing at value " +
                                  std::to_string((*out_)[i]));
          }
        }
        return Status::OK();
      }
      case U64Segment::kArray:
        return DecodeArray(s, seg.array(), out_, room);
      default:
        return Corrupt(s, "segment has no known encoding (field " +
                              std::to_string(static_cast<int>(seg.segment_case())) + ")");
    }
  }

 private:
  std::uint64_t fragment_id_;
  std::uint64_t limit_;
  std::vector<std::uint64_t>* out_;
};

// All values of a RowIdSequence, with the end offset of each segment in `ends`.
Result<std::vector<std::uint64_t>> DecodeFlat(std::string_view bytes, std::uint64_t fragment_id,
                                              std::uint64_t physical_rows,
                                              std::vector<std::size_t>* ends) {
  lance::table::RowIdSequence seq;
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      !seq.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corrupt("row id sequence of fragment " + std::to_string(fragment_id) + " (" +
                           std::to_string(bytes.size()) +
                           " bytes) is not a valid RowIdSequence message; the table's fragment "
                           "metadata is damaged");
  }
  std::vector<std::uint64_t> ids;
  Decoder decoder(fragment_id, physical_rows, &ids);
  for (int s = 0; s < seq.segments_size(); ++s) {
    LND_RETURN_NOT_OK(decoder.Segment(static_cast<std::size_t>(s), seq.segments(s)));
    if (ends != nullptr) ends->push_back(ids.size());
  }
  if (ids.size() != physical_rows) {
    return Status::Corrupt("row id sequence of fragment " + std::to_string(fragment_id) +
                           " holds " + std::to_string(ids.size()) +
                           " row ids but the fragment has " + std::to_string(physical_rows) +
                           " physical rows; the table's fragment metadata is damaged");
  }
  return ids;
}

}  // namespace

Result<std::vector<std::uint64_t>> DecodeRowIdSequence(std::string_view bytes,
                                                       std::uint64_t fragment_id,
                                                       std::uint64_t physical_rows) {
  return DecodeFlat(bytes, fragment_id, physical_rows, nullptr);
}

Result<SegmentList> DecodeRowIdSegments(std::string_view bytes, std::uint64_t fragment_id,
                                        std::uint64_t physical_rows) {
  std::vector<std::size_t> ends;
  LND_ASSIGN_OR_RETURN(auto ids, DecodeFlat(bytes, fragment_id, physical_rows, &ends));
  SegmentList out;
  std::size_t begin = 0;
  for (std::size_t end : ends) {
    out.emplace_back(ids.begin() + static_cast<std::ptrdiff_t>(begin),
                     ids.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
  return out;
}

Result<VersionRuns> DecodeVersionRuns(std::string_view bytes, std::uint64_t fragment_id,
                                      std::uint64_t max_rows) {
  lance::table::RowDatasetVersionSequence seq;
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      !seq.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corrupt("row version sequence of fragment " + std::to_string(fragment_id) +
                           " (" + std::to_string(bytes.size()) +
                           " bytes) is not a valid RowDatasetVersionSequence message; the "
                           "table's fragment metadata is damaged");
  }
  std::vector<std::uint64_t> values;
  Decoder decoder(fragment_id, max_rows, &values);
  VersionRuns runs;
  for (int r = 0; r < seq.runs_size(); ++r) {
    const auto& run = seq.runs(r);
    if (!run.has_span()) {
      return Status::Corrupt("row version sequence of fragment " + std::to_string(fragment_id) +
                             ", run " + std::to_string(r) +
                             " has no span; the table's fragment metadata is damaged");
    }
    const std::size_t begin = values.size();
    LND_RETURN_NOT_OK(decoder.Segment(static_cast<std::size_t>(r), run.span()));
    runs.push_back(
        {SegmentValues(values.begin() + static_cast<std::ptrdiff_t>(begin), values.end()),
         run.version()});
  }
  return runs;
}

Result<FragmentRowIds> ReadFragmentRowIds(const TableLocation& location, const Fragment& fragment) {
  FragmentRowIds out;
  if (!fragment.has_row_ids) return out;
  lance::table::DataFragment proto;
  if (!proto.ParseFromString(fragment.unmodelled_proto)) {
    return Status::Corrupt("fragment " + std::to_string(fragment.id) +
                           ": its stored row id members do not parse");
  }
  std::string bytes;
  switch (proto.row_id_sequence_case()) {
    case lance::table::DataFragment::kInlineRowIds:
      bytes = proto.inline_row_ids();
      break;
    case lance::table::DataFragment::kExternalRowIds: {
      const auto& ext = proto.external_row_ids();
      const std::string path = location.Path(ext.path());
      LND_ASSIGN_OR_RETURN(
          auto file, location.fs().OpenForRead(path).WithContext("external row ids of fragment " +
                                                                 std::to_string(fragment.id)));
      if (ext.offset() > file->Size() || ext.size() > file->Size() - ext.offset()) {
        return Status::Corrupt("external row ids of fragment " + std::to_string(fragment.id) +
                               " at offset " + std::to_string(ext.offset()) + ", size " +
                               std::to_string(ext.size()) + " lie past the end of '" + path +
                               "' (" + std::to_string(file->Size()) + " bytes)");
      }
      LND_ASSIGN_OR_RETURN(io::Bytes data, file->ReadAt(ext.offset(), ext.size()));
      bytes.assign(data->begin(), data->end());
      break;
    }
    default:
      return Status::Corrupt("fragment " + std::to_string(fragment.id) +
                             " is marked as carrying row ids but none are stored");
  }
  LND_ASSIGN_OR_RETURN(out.ids, DecodeRowIdSequence(bytes, fragment.id, fragment.physical_rows));
  out.present = true;
  return out;
}

}  // namespace lance_nd::table::internal
