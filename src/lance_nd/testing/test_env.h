// What tests of every layer need from their surroundings: the source tree (for fixtures and
// scripts), scratch folders, and commands run through the shell (node, ncdump).
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace lance_nd::testing {

/// \brief The source tree: LANCE_ND_SOURCE_DIR, which ctest sets for every test; "." when a
/// test binary is run by hand from the root of the tree.
inline std::string SourceDir() {
  const char* root = std::getenv("LANCE_ND_SOURCE_DIR");
  return root != nullptr && *root != '\0' ? root : ".";
}

/// \brief A path inside the source tree, e.g.
/// SourcePath("src/lance_nd/netcdf/testdata/features.cdl").
inline std::string SourcePath(std::string_view relative) {
  return SourceDir() + "/" + std::string(relative);
}

/// \brief A fresh, uniquely named folder under the temporary directory, removed with everything
/// in it when destroyed (also when a test fails).
class TempDir {
 public:
  explicit TempDir(std::string_view tag = "test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("lance_nd_" + std::string(tag) + "_XXXXXX"))
            .string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// \brief The folder ("" when it could not be made: the test's own checks then fail).
  const std::string& path() const { return path_; }
  /// \brief `name` inside the folder.
  std::string Path(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

/// \brief Runs `command` with the shell, stderr joined to stdout: the output when it exits 0,
/// else "exit STATUS: " and the output, so that a failure shows in an assertion's message.
inline std::string RunCommand(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return "exit -1: popen failed for " + command;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return status == 0 ? out : "exit " + std::to_string(status) + ": " + out;
}

/// \brief Runs the node script at `script_path` with `args` (already quoted where needed):
/// RunCommand's result.
inline std::string RunNode(const std::string& script_path, const std::string& args = "") {
  return RunCommand("node " + script_path + (args.empty() ? "" : " " + args));
}

/// \brief Why the interop oracle cannot run here: "" when node and the LanceDB package in
/// interop/node_modules (make setup) are there.
inline std::string OracleMissing() {
  if (std::system("node --version > /dev/null 2>&1") != 0) return "node is not on PATH";
  const std::string modules = SourcePath("interop/node_modules/@lancedb/lancedb");
  if (!std::filesystem::exists(modules)) return modules + " is missing (run make setup)";
  return "";
}

/// \brief Whether the tests that need the oracle must run: ctest sets LANCE_ND_REQUIRE_ORACLE=1
/// in builds configured with LANCE_ND_REQUIRE_INTEROP (the dev preset, which make test and CI
/// use); they then fail instead of skipping.
inline bool OracleRequired() {
  const char* required = std::getenv("LANCE_ND_REQUIRE_ORACLE");
  return required != nullptr && std::string(required) == "1";
}

}  // namespace lance_nd::testing

/// \brief In a test body: skip the test when the oracle is missing, or fail it where the build
/// requires the oracle.
#define LND_NEED_ORACLE()                                                        \
  do {                                                                           \
    const std::string lnd_oracle_missing = ::lance_nd::testing::OracleMissing(); \
    if (!lnd_oracle_missing.empty()) {                                           \
      if (::lance_nd::testing::OracleRequired()) FAIL() << lnd_oracle_missing;   \
      GTEST_SKIP() << lnd_oracle_missing;                                        \
    }                                                                            \
  } while (false)
