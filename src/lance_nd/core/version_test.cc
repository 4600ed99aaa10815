#include "lance_nd/version.h"

#include <gtest/gtest.h>

#include <string>

namespace lance_nd {
namespace {

// LANCE_ND_TEST_PROJECT_VERSION is CMake's PROJECT_VERSION, passed to this test on its own
// (src/lance_nd/CMakeLists.txt), so a stale or hand-edited version.h fails here.
TEST(VersionTest, HeaderMatchesTheProjectVersion) {
  EXPECT_STREQ(LANCE_ND_VERSION_STRING, LANCE_ND_TEST_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(kVersionMajor) + "." + std::to_string(kVersionMinor) + "." +
                std::to_string(kVersionPatch),
            LANCE_ND_TEST_PROJECT_VERSION);
  EXPECT_STREQ(kVersionString, LANCE_ND_VERSION_STRING);
}

TEST(VersionTest, LibraryReportsTheHeaderVersion) { EXPECT_STREQ(VersionString(), kVersionString); }

}  // namespace
}  // namespace lance_nd
