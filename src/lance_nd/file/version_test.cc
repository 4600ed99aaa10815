#include "lance_nd/file/version.h"

#include <gtest/gtest.h>

namespace lance_nd::file {
namespace {

TEST(FileVersion, NamesTheVersionsAFooterCanHold) {
  EXPECT_EQ(FileVersion::kV2_1.ToString(), "2.1");
  EXPECT_EQ(FileVersion::kV2_2.Name(), "2.2");
  EXPECT_EQ(FileVersion::kV2_0.ToString(), "0.3");  // the footer's numbers
  EXPECT_EQ(FileVersion::kV2_0.Name(), "2.0");      // the name Lance gives them
  EXPECT_EQ((FileVersion{0, 1}).Name(), "legacy v1 (0.1)");
  EXPECT_EQ((FileVersion{2, 7}).Name(), "2.7");
}

TEST(FileVersion, OnlyTheVersionsLanceNdReadsAndWritesAreSupported) {
  EXPECT_TRUE(FileVersion::kV2_1.IsSupported());
  EXPECT_TRUE(FileVersion::kV2_2.IsSupported());
  EXPECT_FALSE(FileVersion::kV2_0.IsSupported());
  EXPECT_FALSE((FileVersion{2, 3}).IsSupported());
  EXPECT_FALSE((FileVersion{3, 1}).IsSupported());
  EXPECT_FALSE(FileVersion{}.IsSupported());
}

TEST(FileVersion, OrdersByMajorThenMinor) {
  static_assert(FileVersion::kV2_0 < FileVersion::kV2_1);
  static_assert(FileVersion::kV2_1 < FileVersion::kV2_2);
  EXPECT_LT(FileVersion::kV2_2, (FileVersion{3, 0}));
  EXPECT_EQ((FileVersion{2, 2}), FileVersion::kV2_2);
  EXPECT_NE(FileVersion::kV2_1, FileVersion::kV2_2);
}

}  // namespace
}  // namespace lance_nd::file
