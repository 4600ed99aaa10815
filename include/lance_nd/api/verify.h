// Verification of a lance-nd table's stored data: Lance files carry no checksums, so a damaged
// data file can read back as wrong values without any error. Verify reads every page of every
// data file of one version, in bounded batches, and checks what can be checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/location.h"

namespace lance_nd {

struct LANCE_ND_EXPORT VerifyOptions {
  /// The version to verify; the latest when unset.
  std::optional<std::uint64_t> version;
  /// Rows read and checked at a time (memory stays bounded by this many rows of every column).
  std::int64_t batch_rows = 1024;
};

/// \brief The first bad place Verify found.
struct LANCE_ND_EXPORT VerifyProblem {
  std::uint64_t fragment_id = 0;
  std::string data_file;        // path of the data file, empty for a problem of the whole fragment
  std::string column;           // the field (top-level column or variable), empty when not known
  std::int64_t first_row = -1;  // first row (within the fragment) of the bad rows, -1 if none
  std::int64_t num_rows = 0;    // how many rows from first_row the problem covers (1: one row)
  std::string what;             // what was wrong
  /// \brief One line: "fragment 3, data file data/x.lance, column 't', row 17: WHAT".
  std::string ToString() const;
};

struct LANCE_ND_EXPORT VerifyReport {
  std::uint64_t version = 0;
  std::uint64_t rows = 0;        // rows verified (deleted rows are not counted)
  std::uint64_t fragments = 0;   // fragments verified
  std::uint64_t columns = 0;     // top-level columns of the schema
  std::uint64_t data_files = 0;  // data files verified
  /// The first bad place; unset when everything checked is consistent.
  std::optional<VerifyProblem> problem;
  bool ok() const { return !problem.has_value(); }
  /// \brief "verified N rows in F fragments, C columns: ok", or the problem.
  std::string Summary() const;
};

/// \brief Check one version of the lance-nd table at `location`, stopping at the first bad
/// place: every data file's footer and metadata parse and hold the fragment's rows, every page
/// of every column decodes, every value passes its type's checks (array::Validate: offsets
/// monotone and in range, UTF-8 valid, child lengths, null counts), and every live row decodes
/// as an nd record batch (nd::RowDecoder). Reads `batch_rows` rows at a time.
///
/// What it cannot see: a damaged byte inside a fixed-width value (a float's bits) leaves a valid
/// value of the same type; Lance files have no checksums to catch it.
///
/// A problem in the stored data is reported in the VerifyReport; errors opening the table
/// (TableNotFound, a manifest that does not parse, InvalidTable) are the returned Status.
LANCE_ND_EXPORT Result<VerifyReport> Verify(const table::TableLocation& location,
                                            const VerifyOptions& options = {});
LANCE_ND_EXPORT Result<VerifyReport> Verify(std::string_view uri,
                                            const VerifyOptions& options = {});

}  // namespace lance_nd
