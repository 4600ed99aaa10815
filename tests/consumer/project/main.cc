// Uses an installed lance-nd through its public headers only: Status/Result, array types,
// builders, record batches, Arrow IPC and the nd array model, and checks that the package, the
// headers and the linked library agree on the version. Exits non-zero on any failure.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/core/status.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/version.h"

namespace {

namespace la = lance_nd::array;
namespace nd = lance_nd::nd;
using lance_nd::Result;
using lance_nd::Status;

Result<int> Half(int v) {
  if (v % 2 != 0) return Status::InvalidArgument("odd value " + std::to_string(v));
  return v / 2;
}

Status CheckStatusAndResult() {
  LND_ASSIGN_OR_RETURN(int h, Half(8));
  if (h != 4) return Status::InvalidArgument("Half(8) gave " + std::to_string(h));
  Result<int> odd = Half(3);
  if (odd.ok() || !odd.status().IsInvalidArgument()) {
    return Status::InvalidArgument("Half(3) did not fail with InvalidArgument");
  }
  return Status::OK();
}

// LANCE_ND_PACKAGE_VERSION is the version find_package(lance_nd) found (CMakeLists.txt).
Status CheckVersion() {
  const std::string header = LANCE_ND_VERSION_STRING;
  const std::string library = lance_nd::VersionString();
  if (header != LANCE_ND_PACKAGE_VERSION || library != header) {
    return Status::InvalidArgument("versions differ: package ", LANCE_ND_PACKAGE_VERSION,
                                   ", headers ", header, ", library ", library);
  }
  return Status::OK();
}

Status CheckIpcRoundTrip() {
  la::ArrayPtr ints = la::MakePrimitiveArray<int32_t>(la::Int32(), {1, std::nullopt, 3});
  la::ArrayPtr strs = la::MakeStringArray({"a", "bb", std::nullopt});
  la::SchemaPtr schema =
      la::MakeSchema({la::MakeField("i", la::Int32()), la::MakeField("s", la::Utf8())},
                     la::Metadata({{"origin", "consumer"}}));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, la::RecordBatch::Make(schema, 3, {ints, strs}));
  std::vector<la::RecordBatchPtr> batches{batch};
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> bytes, la::ipc::WriteIpcStream(schema, batches));
  LND_ASSIGN_OR_RETURN(la::ipc::IpcContents back, la::ipc::ReadIpcStream(bytes));
  if (back.batches.size() != 1 || !back.batches[0]->Equals(*batch)) {
    return Status::InvalidArgument("IPC round trip changed the batch");
  }
  return Status::OK();
}

Status CheckNdArray() {
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"y", 2}, {"x", 3}}));
  la::ArrayPtr values = la::MakePrimitiveArray<float>(la::Float32(), {1, 2, 3, 4, 5, 6});
  nd::Attributes attrs;
  attrs.Set("units", "K");
  LND_ASSIGN_OR_RETURN(nd::NdArrowArray array, nd::NdArrowArray::Make(values, dims, attrs));
  if (array.num_elements() != 6 || array.attributes().GetString("units") != "K") {
    return Status::InvalidArgument("unexpected nd array " + array.ToString());
  }
  Result<nd::NdArrowArray> bad = nd::NdArrowArray::Make(values, nd::Dimensions());
  if (bad.ok()) return Status::InvalidArgument("6 values on a scalar grid were accepted");
  return Status::OK();
}

}  // namespace

int main() {
  for (const auto& [name, check] :
       {std::pair{"status/result", &CheckStatusAndResult}, std::pair{"version", &CheckVersion},
        std::pair{"ipc", &CheckIpcRoundTrip}, std::pair{"nd", &CheckNdArray}}) {
    Status st = check();
    if (!st.ok()) {
      std::fprintf(stderr, "consumer: %s: %s\n", name, st.ToString().c_str());
      return 1;
    }
    std::printf("consumer: %s ok\n", name);
  }
  return 0;
}
