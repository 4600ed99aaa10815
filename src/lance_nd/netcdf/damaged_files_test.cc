// Damaged netCDF files that crash or hang libnetcdf (inside libhdf5) are tried first in a child
// process: the import reports them and goes on, the process lives. testdata holds a netCDF-4
// file, one byte changed, on which libhdf5 1.10 crashes while reading a variable's dimension
// list; the generated cases damage bytes of a netCDF-4 file at random.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include <sys/wait.h>

#include "lance_nd/api/table.h"
#include "lance_nd/netcdf/child_guard.h"
#include "lance_nd/netcdf/import.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"
#include "netcdf_test_util.h"

namespace lance_nd::netcdf {
namespace {

using internal::SurvivesInChild;
using testing::TempDir;
using namespace std::chrono_literals;

TEST(ChildGuard, ACrashInTheChildIsAnErrorNamingTheSignal) {
  const Status crashed = SurvivesInChild(
      "the structure of x.nc",
      [] {
        std::raise(SIGSEGV);
        return Status::OK();
      },
      10s);
  LND_EXPECT_ERROR(crashed, StatusCode::kIOError, "crashed reading the structure of x.nc");
  EXPECT_NE(crashed.message().find("signal 11"), std::string::npos) << crashed.ToString();
  EXPECT_NE(crashed.message().find("restore or re-create it"), std::string::npos);
  const Status aborted = SurvivesInChild(
      "y.nc",
      [] {
        std::abort();
        return Status::OK();
      },
      10s);
  LND_EXPECT_ERROR(aborted, StatusCode::kIOError, "signal 6");
}

// A library that ends the process itself (exit, or a sanitizer reporting a fault) is an error
// too; only the child's own report of `read`'s result is not.
TEST(ChildGuard, AnExitOfTheLibrarysOwnIsAnError) {
  for (const int code : {1, 2, 5, 96, 98}) {
    const Status exited = SurvivesInChild(
        "z.nc",
        [code] {
          ::_exit(code);
          return Status::OK();
        },
        10s);
    LND_EXPECT_ERROR(exited, StatusCode::kIOError, "ended the process reading z.nc");
    EXPECT_NE(exited.message().find("exit code " + std::to_string(code)), std::string::npos)
        << exited.ToString();
  }
}

TEST(ChildGuard, ReadErrorsAreLeftToTheCaller) {
  LND_EXPECT_OK(SurvivesInChild(
      "x.nc", [] { return Status::IOError("unreadable"); }, 10s));
  LND_EXPECT_OK(SurvivesInChild(
      "x.nc", [] { return Status::OK(); }, 10s));
}

TEST(ChildGuard, TheChildsWorkStaysInTheChild) {
  int touched = 0;
  LND_EXPECT_OK(SurvivesInChild(
      "x.nc",
      [&] {
        touched = 1;
        return Status::OK();
      },
      10s));
  EXPECT_EQ(touched, 0);
}

TEST(ChildGuard, AChildThatRunsTooLongIsStopped) {
  const auto start = std::chrono::steady_clock::now();
  const Status slow = SurvivesInChild(
      "the structure of slow.nc",
      [] {
        std::this_thread::sleep_for(60s);
        return Status::OK();
      },
      300ms);
  LND_EXPECT_ERROR(slow, StatusCode::kIOError, "did not finish within 300 ms");
  EXPECT_NE(slow.message().find("the structure of slow.nc"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
}

std::string Fixture() {
  return lance_nd::testing::SourcePath("src/lance_nd/netcdf/testdata/damaged_dimension_list.nc");
}

// True when `ncdump -h` dies of a signal on `path`: this libhdf5 crashes on the file.
bool NcdumpCrashesOn(const std::string& path) {
  int status = 0;
  testing::Run("ncdump -h '" + path + "' >/dev/null 2>&1", &status);
  return WIFEXITED(status) && WEXITSTATUS(status) > 128;  // the shell's code for a signal
}

using testing::SmallFile;

TEST(DamagedFiles, AFileThatCrashesLibhdf5IsReportedAndSkipped) {
  const std::string damaged = Fixture();
  ASSERT_TRUE(std::filesystem::exists(damaged)) << damaged;
  if (!testing::HaveTool("ncdump")) GTEST_SKIP() << "ncdump (netcdf-bin) is not installed";
  TempDir dir("damaged");
  const std::string good = dir.Path("good.nc");
  SmallFile(good);
  const std::vector<std::string> files{good, damaged};
  const auto result = ImportNetcdf(dir.Path("t.lance"), files, {});
  if (!NcdumpCrashesOn(damaged)) {
    // This libhdf5 reads the file without crashing: any outcome but a crash is right.
    GTEST_SKIP() << "this libhdf5 does not crash on the fixture: "
                 << (result.ok() ? "imported" : result.status().ToString());
  }
  LND_EXPECT_ERROR(result, StatusCode::kIOError, "libnetcdf crashed reading the structure of");
  LND_EXPECT_ERROR(result, StatusCode::kIOError, damaged);
  EXPECT_FALSE(Table::Open(dir.Path("t.lance")).ok());  // nothing committed
  ImportOptions skip;
  skip.skip_bad = true;
  const auto skipped = ImportNetcdf(dir.Path("t.lance"), files, skip);
  LND_ASSERT_OK(skipped.status());
  EXPECT_EQ(skipped->files, 1u);
  ASSERT_EQ(skipped->skipped.size(), 1u);
  EXPECT_EQ(skipped->skipped[0].path, damaged);
}

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A netCDF-4 file with dimension scales, attributes of several kinds and a string variable.
void Netcdf4File(const std::string& path) {
  int ncid = -1, t = -1, x = -1, temp = -1, xs = -1, names = -1;
  ASSERT_EQ(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &ncid), NC_NOERR);
  nc_def_dim(ncid, "time", NC_UNLIMITED, &t);
  nc_def_dim(ncid, "x", 4, &x);
  const int dims[2] = {t, x};
  nc_def_var(ncid, "temp", NC_FLOAT, 2, dims, &temp);
  nc_def_var(ncid, "x", NC_INT, 1, &x, &xs);
  nc_def_var(ncid, "name", NC_STRING, 1, &x, &names);
  nc_put_att_text(ncid, temp, "units", 1, "K");
  const float fill = -1;
  nc_put_att_float(ncid, temp, "_FillValue", NC_FLOAT, 1, &fill);
  nc_put_att_text(ncid, NC_GLOBAL, "title", 9, "generated");
  nc_enddef(ncid);
  const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::size_t start[2] = {0, 0}, count[2] = {2, 4};
  nc_put_vara_float(ncid, temp, start, count, values);
  const int xv[4] = {10, 20, 30, 40};
  nc_put_var_int(ncid, xs, xv);
  const char* text[4] = {"a", "bb", "", "dddd"};
  nc_put_var_string(ncid, names, text);
  ASSERT_EQ(nc_close(ncid), NC_NOERR);
}

// Seeded damage (1 to 12 bytes of the file changed): every import ends with a result or an
// error naming the file, never with this process dead.
TEST(DamagedFiles, RandomDamageNeverKillsTheImport) {
  TempDir dir("random_damage");
  const std::string source = dir.Path("source.nc");
  Netcdf4File(source);
  const std::string bytes = Bytes(source);
  ASSERT_GT(bytes.size(), 1000u);
  int imported = 0, refused = 0, crashed = 0;
  for (int seed = 0; seed < 200; ++seed) {
    std::mt19937 rng(seed);
    std::string damaged = bytes;
    for (int n = 1 + static_cast<int>(rng() % 12); n > 0; --n) {
      damaged[rng() % damaged.size()] = static_cast<char>(rng());
    }
    const std::string path = dir.Path("d" + std::to_string(seed) + ".nc");
    std::ofstream(path, std::ios::binary) << damaged;
    const std::vector<std::string> files{path};
    const auto result = ImportNetcdf(dir.Path("t" + std::to_string(seed) + ".lance"), files, {});
    if (result.ok()) {
      ++imported;
      continue;
    }
    ++refused;
    crashed += result.status().message().find("crashed") != std::string::npos;
    EXPECT_NE(result.status().message().find(path), std::string::npos)
        << "seed " << seed << ": " << result.status().ToString();
  }
  std::cout << imported << " imported, " << refused << " refused (" << crashed
            << " of them crashed libnetcdf in the child)\n";
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace lance_nd::netcdf
