#include "lance_nd/table/versions.h"

#include <gtest/gtest.h>

#include <limits>

namespace lance_nd::table {
namespace {

TEST(TableManifestNames, V2NamesInvertTheVersion) {
  EXPECT_EQ(ManifestFileName(1, ManifestNaming::kV2), "18446744073709551614.manifest");
  EXPECT_EQ(ManifestFileName(2, ManifestNaming::kV2), "18446744073709551613.manifest");
  // Zero-padded to 20 digits for large versions.
  EXPECT_EQ(ManifestFileName(std::numeric_limits<std::uint64_t>::max() - 7, ManifestNaming::kV2),
            "00000000000000000007.manifest");
  EXPECT_EQ(ManifestFileName(12, ManifestNaming::kV1), "12.manifest");
}

TEST(TableManifestNames, ParsesBothSchemes) {
  EXPECT_EQ(ParseManifestFileName("18446744073709551614.manifest"),
            (ManifestName{1, ManifestNaming::kV2}));
  EXPECT_EQ(ParseManifestFileName("2.manifest"), (ManifestName{2, ManifestNaming::kV1}));
  EXPECT_EQ(ParseManifestFileName("123456.manifest"), (ManifestName{123456, ManifestNaming::kV1}));
  for (std::uint64_t v : {1ull, 7ull, 99999ull}) {
    for (auto naming : {ManifestNaming::kV1, ManifestNaming::kV2}) {
      EXPECT_EQ(ParseManifestFileName(ManifestFileName(v, naming)), (ManifestName{v, naming}));
    }
  }
}

TEST(TableManifestNames, IgnoresTempDetachedAndOtherNames) {
  for (const char* name :
       {"18446744073709551614.manifest#1", ".tmpAbC123", "3.manifest-1b2c", "d123.manifest",
        "latest_version_hint.json", ".manifest", "manifest", "0.manifest", "1a.manifest",
        "-1.manifest", "99999999999999999999999.manifest", "18446744073709551615.manifest",
        "3.MANIFEST", "+3.manifest", " 3.manifest"}) {
    EXPECT_EQ(ParseManifestFileName(name), std::nullopt) << name;
  }
}

}  // namespace
}  // namespace lance_nd::table
