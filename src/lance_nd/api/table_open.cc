// Table::Open, Refresh and the read-only accessors of the table's schema.
#include <string>

#include "lance_nd/api/table.h"
#include "lance_nd/api/table_errors.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"

namespace lance_nd {

Result<Table> Table::Open(std::string_view uri) { return Open(ResolveLocation(uri)); }

Result<Table> Table::Open(const table::TableLocation& location,
                          std::optional<std::uint64_t> version) {
  LND_ASSIGN_OR_RETURN(table::Dataset ds, internal::OpenDataset(location, version));
  const bool latest =
      !version || ds.versions().versions.empty() || *version == ds.versions().versions.back();
  return Table(std::move(ds), latest);
}

Status Table::Refresh() {
  LND_ASSIGN_OR_RETURN(dataset_, internal::OpenDataset(dataset_.location(), std::nullopt));
  writable_ = true;
  return Status::OK();
}

bool Table::has_stats() const { return HasStats(*schema()); }

std::vector<array::FieldPtr> Table::Variables() const {
  std::vector<array::FieldPtr> out;
  for (const array::FieldPtr& f : schema()->fields()) {
    if (!nd::IsNdField(*f)) continue;
    auto logical = nd::LogicalField(*f);
    if (logical.ok()) out.push_back(nd::StripEncodingKeys(*logical));
  }
  return out;
}

namespace internal {

Status TableNotFound(const table::TableLocation& location) {
  return Status::NotFound("no table at ", location.root()).WithKind(ErrorKind::kTableNotFound);
}

Status TableExists(const table::TableLocation& location) {
  return Status::AlreadyExists("a table exists at ", location.root(),
                               "; append to it (mode append) or replace it (mode overwrite)")
      .WithKind(ErrorKind::kTableExists);
}

Result<table::Dataset> OpenDataset(const table::TableLocation& location,
                                   std::optional<std::uint64_t> version) {
  auto ds = table::Dataset::Open(location, version);
  if (!ds.ok()) {
    if (ds.status().IsNotFound()) {
      LND_ASSIGN_OR_RETURN(bool exists, TableExistsAt(location));
      if (!exists) return TableNotFound(location);
    }
    return ds.status();
  }
  LND_RETURN_NOT_OK(CheckFormat(*ds->schema()).WithContext("table at ", location.root()));
  return std::move(*ds);
}

Result<bool> TableExistsAt(const table::TableLocation& location) {
  auto versions = table::ListVersions(location);
  if (versions.ok()) return !versions->versions.empty();
  if (versions.status().IsNotFound()) return false;
  return versions.status();
}

}  // namespace internal
}  // namespace lance_nd
