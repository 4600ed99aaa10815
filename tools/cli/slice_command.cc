// `lance-nd slice TABLE --id ID --var NAME [--isel dim=SPEC,...] [--sel dim=VALUE|A:B,...]
// [--format json|npy|nc] [--out FILE]`: a hyperslab of one variable of one dataset (`nc` when
// the command line is built with the netcdf layer).
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/region.h"
#include "npy_writer.h"
#include "output_file.h"
#include "slice_spec.h"
#include "term_text.h"

#ifdef LANCE_ND_WITH_NETCDF
#include "lance_nd/netcdf/export.h"
#endif

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "slice";

struct SliceOptions {
  std::string uri;
  std::string id;
  std::string variable;
  std::vector<std::string> isel;
  std::vector<std::string> sel;
  std::string format = "json";
  std::optional<std::string> out;
};

RegionSelection Selection(const SliceOptions& o) {
  RegionSelection selection;
  for (const std::string& text : o.isel) {
    for (auto& s : OrFail(kCommand, ParseIndexSelection(text))) selection.push_back(std::move(s));
  }
  for (const std::string& text : o.sel) {
    for (auto& s : OrFail(kCommand, ParseValueSelection(text))) selection.push_back(std::move(s));
  }
  return selection;
}

void Write(const SliceOptions& o, const std::string& bytes) {
  if (!o.out) {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cout.flush();
    if (!std::cout) Fail(kCommand, "writing to stdout failed");
    return;
  }
  OrFail(kCommand, WriteReplacing(*o.out, bytes));
}

#ifdef LANCE_ND_WITH_NETCDF
/// The region as a dataset: the variable, and the coordinate variables of the dimensions it
/// keeps, cut the same way (as xarray keeps a DataArray's coordinates).
nd::NdRecordBatch AsDataset(const Table& table, const SliceOptions& o,
                            const RegionSelection& selection, const nd::NdArrowArray& region) {
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays = {{o.variable, region}};
  std::vector<std::string> variables;
  for (const auto& field : table.Variables()) variables.push_back(field->name());
  for (const auto& dim : region.dimensions().dims()) {
    const bool known = std::find(variables.begin(), variables.end(), dim.name) != variables.end();
    if (dim.name == o.variable || !known) continue;
    RegionSelection along;
    for (const auto& [name, selector] : selection) {
      if (name == dim.name) along.emplace_back(name, selector);
    }
    Result<nd::NdArrowArray> coordinate = ReadRegion(table, o.id, dim.name, along);
    if (!coordinate.ok() && coordinate.status().IsNotFound()) continue;  // not in this dataset
    const nd::NdArrowArray c = OrFail(kCommand, std::move(coordinate));
    if (c.rank() == 1 && c.dimensions()[0] == dim) arrays.emplace_back(dim.name, c);
  }
  return OrFail(kCommand, nd::NdRecordBatch::FromArrays(std::move(arrays)));
}
#endif

void Run(const SliceOptions& o) {
  const RegionSelection selection = Selection(o);
  if (o.format == "nc" && !o.out) Fail(kCommand, "--format nc writes a file: give --out FILE");
  const Table table = OpenTable(kCommand, o.uri);
  const nd::NdArrowArray region = OrFail(kCommand, ReadRegion(table, o.id, o.variable, selection));
#ifdef LANCE_ND_WITH_NETCDF
  if (o.format == "nc") {
    const nd::NdRecordBatch dataset = AsDataset(table, o, selection, region);
    OrFail(kCommand, WriteReplacing(*o.out, [&](const std::string& path) {
             return netcdf::WriteNetcdf(path, dataset);
           }));
    return;
  }
#endif
  if (o.format == "npy") {
    Write(o, OrFail(kCommand, EncodeNpy(region, o.variable)));
  } else {
    std::string json = OrFail(kCommand, EncodeJsonArray(region)) + "\n";
    ReplaceInvalidUtf8(json);  // a stored string that is not UTF-8 must not break the JSON
    Write(o, json);
  }
}

}  // namespace

void AddSliceCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "slice",
      "Read a hyperslab of one variable of one dataset (chunk rows are found from the "
      "global attributes; only those overlapping the region are read)");
  cmd->footer(
      "Example:\n"
      "  lance-nd slice coads.lance --id coads --var SST --isel TIME=0 "
      "--sel COADSY=-10:10,COADSX=180\n"
      "  lance-nd slice coads.lance --id coads --var SST --sel COADSY=0.5,COADSX=180 "
      "--format npy --out sst.npy");
  auto o = std::make_shared<SliceOptions>();
  cmd->add_option("table", o->uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("--id", o->id, "the dataset (its global attribute id)")->required();
  cmd->add_option("--var", o->variable, "the variable to read")->required();
  cmd->add_option("--isel", o->isel,
                  "by index: dim=i (drops the dimension) or dim=a:b (half-open, ends may be left "
                  "out, negative counts from the end), comma-separated; may be repeated")
      ->allow_extra_args(false);
  cmd->add_option("--sel", o->sel,
                  "by coordinate value: dim=v (nearest, drops the dimension) or dim=A:B (the "
                  "closed range), comma-separated; may be repeated")
      ->allow_extra_args(false);
#ifdef LANCE_ND_WITH_NETCDF
  cmd->add_option("--format", o->format,
                  "json (default): one JSON Lines array; npy: a NumPy file; nc: a netCDF-4 "
                  "file with the variable and its coordinates (needs --out)")
      ->check(CLI::IsMember({"json", "npy", "nc"}));
#else
  cmd->add_option("--format", o->format, "json (default): one JSON Lines array; npy: a NumPy file")
      ->check(CLI::IsMember({"json", "npy"}));
#endif
  cmd->add_option("--out", o->out, "write to this file instead of stdout");
  cmd->callback([o] { Run(*o); });
}

}  // namespace lance_nd::cli
