#include "write_options.h"

#include <string>

#include "status.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;

WriteMode ParseMode(const std::string& mode) {
  if (mode == "create") return WriteMode::kCreate;
  if (mode == "append") return WriteMode::kAppend;
  if (mode == "overwrite") return WriteMode::kOverwrite;
  throw StatusError(
      Status::InvalidArgument("mode '", mode, "' is not one of 'create', 'append', 'overwrite'"));
}

template <typename E>
E Choose(const std::string& key, const std::string& value,
         std::initializer_list<std::pair<const char*, E>> choices) {
  std::string names;
  for (const auto& [name, e] : choices) {
    if (value == name) return e;
    names += names.empty() ? "" : ", ";
    names += std::string("'") + name + "'";
  }
  throw StatusError(
      Status::InvalidArgument("column option ", key, " = '", value, "' is not one of ", names));
}

ColumnOptions ParseColumnOptions(const py::handle& handle) {
  ColumnOptions out;
  for (auto item : py::dict(py::reinterpret_borrow<py::object>(handle))) {
    const auto key = item.first.cast<std::string>();
    const py::handle v = item.second;
    if (key == "compression") {
      out.compression = Choose<Compression>(key, v.cast<std::string>(),
                                            {{"none", Compression::kNone},
                                             {"lz4", Compression::kLz4},
                                             {"zstd", Compression::kZstd},
                                             {"fsst", Compression::kFsst}});
    } else if (key == "compression_level") {
      out.compression_level = v.cast<int>();
    } else if (key == "byte_stream_split") {
      out.byte_stream_split = Choose<ByteStreamSplit>(key, v.cast<std::string>(),
                                                      {{"on", ByteStreamSplit::kOn},
                                                       {"off", ByteStreamSplit::kOff},
                                                       {"auto", ByteStreamSplit::kAuto}});
    } else if (key == "rle_threshold") {
      out.rle_threshold = v.cast<double>();
    } else if (key == "structural_encoding") {
      out.structural_encoding =
          Choose<StructuralEncoding>(key, v.cast<std::string>(),
                                     {{"miniblock", StructuralEncoding::kMiniBlock},
                                      {"fullzip", StructuralEncoding::kFullZip}});
    } else {
      throw StatusError(Status::InvalidArgument(
          "unknown column option '", key,
          "': expected compression, compression_level, byte_stream_split, rle_threshold or "
          "structural_encoding"));
    }
  }
  return out;
}

}  // namespace

WriteOptions ParseWriteOptions(const py::dict& options) {
  WriteOptions out;
  for (auto item : options) {
    const auto key = item.first.cast<std::string>();
    const py::handle v = item.second;
    if (v.is_none()) continue;
    if (key == "mode") {
      out.mode = ParseMode(v.cast<std::string>());
    } else if (key == "casting") {
      out.casting = Unwrap(ParseCasting(v.cast<std::string>()));
    } else if (key == "stats") {
      out.stats = v.cast<bool>();
    } else if (key == "target_fragment_bytes") {
      out.target_fragment_bytes = v.cast<std::size_t>();
    } else if (key == "write_parallelism") {
      out.write_parallelism = v.cast<std::size_t>();
    } else if (key == "column_defaults") {
      out.column_defaults = ParseColumnOptions(v);
    } else if (key == "column_options") {
      for (auto column : py::dict(py::reinterpret_borrow<py::object>(v))) {
        out.column_options[column.first.cast<std::string>()] = ParseColumnOptions(column.second);
      }
    } else {
      throw StatusError(Status::InvalidArgument("unknown write option '", key, "'"));
    }
  }
  return out;
}

}  // namespace lance_nd::python
