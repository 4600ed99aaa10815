// Example: build an nd record batch, encode it as Arrow rows, write Arrow IPC, read it back.
//
//   example_nd_ipc [OUT.arrows]
//
// docs/user-guide.md walks through this file.
#include <cstdio>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"

namespace la = lance_nd::array;
namespace nd = lance_nd::nd;
using lance_nd::Result;
using lance_nd::Status;

// [build]
// A 2 x 3 temperature grid with 1-D latitude and longitude coordinates: three arrays on one
// (lat, lon) grid, like an xarray Dataset. Nulls are missing values.
Result<nd::NdRecordBatch> MakeGrid() {
  LND_ASSIGN_OR_RETURN(nd::Dimensions grid,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"lat", 2}, {"lon", 3}}));
  LND_ASSIGN_OR_RETURN(nd::Dimensions lat_dim,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"lat", 2}}));
  LND_ASSIGN_OR_RETURN(nd::Dimensions lon_dim,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"lon", 3}}));

  la::ArrayPtr temp_values = la::MakePrimitiveArray<float>(
      la::Float32(), {281.5F, 282.0F, std::nullopt, 279.25F, 280.0F, 280.5F});
  nd::Attributes temp_attrs;
  temp_attrs.Set("units", "K").Set("valid_range", std::vector<double>{180.0, 340.0});
  LND_ASSIGN_OR_RETURN(nd::NdArrowArray temp,
                       nd::NdArrowArray::Make(temp_values, grid, temp_attrs));
  LND_ASSIGN_OR_RETURN(
      nd::NdArrowArray lat,
      nd::NdArrowArray::Make(la::MakePrimitiveArray<double>(la::Float64(), {52.0, 52.5}), lat_dim));
  LND_ASSIGN_OR_RETURN(
      nd::NdArrowArray lon,
      nd::NdArrowArray::Make(la::MakePrimitiveArray<double>(la::Float64(), {4.0, 4.5, 5.0}),
                             lon_dim));

  nd::Attributes globals;
  globals.Set("title", "example grid").Set("version", int32_t{1});
  return nd::NdRecordBatch::FromArrays({{"temp", temp}, {"lat", lat}, {"lon", lon}}, globals);
}
// [build]

// [encode]
// Encode nd record batches as one Arrow record batch (one row per nd batch), write it as an
// Arrow IPC stream, read it back and decode the rows.
Status RoundTrip(const std::string& path) {
  LND_ASSIGN_OR_RETURN(nd::NdRecordBatch first, MakeGrid());
  LND_ASSIGN_OR_RETURN(nd::NdRecordBatch second, MakeGrid());
  second.mutable_attributes().Set("title", "second row");
  const std::vector<nd::NdRecordBatch> rows{first, second};

  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr encoded, nd::EncodeRows(rows));
  const std::vector<la::RecordBatchPtr> batches{encoded};
  LND_RETURN_NOT_OK(la::ipc::WriteIpcStreamFile(path, encoded->schema(), batches));

  LND_ASSIGN_OR_RETURN(la::ipc::IpcStreamReader reader, la::ipc::IpcStreamReader::OpenFile(path));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(reader.schema()));
  for (;;) {
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, reader.ReadNext());
    if (batch == nullptr) break;
    LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> decoded, decoder.DecodeAll(*batch));
    for (std::size_t i = 0; i < decoded.size(); ++i) {
      if (!decoded[i].Equals(rows[i])) {
        return Status::Corrupt("row " + std::to_string(i) + " changed in the round trip");
      }
      std::printf("row %zu: %s\n", i, decoded[i].ToString().c_str());
    }
  }
  return Status::OK();
}
// [encode]

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "nd_example.arrows";
    Status st = RoundTrip(path);
    if (!st.ok()) {
      std::fprintf(stderr, "example_nd_ipc: %s\n", st.ToString().c_str());
      return 1;
    }
    std::printf("wrote and re-read %s\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {  // lance-nd reports errors as Status; this is bad_alloc
    std::fprintf(stderr, "example_nd_ipc: %s\n", e.what());
    return 1;
  }
}
