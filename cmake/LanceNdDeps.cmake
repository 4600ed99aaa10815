# Third-party dependencies, all from Debian packages (scripts/setup-debian.sh installs them).
find_package(Threads REQUIRED)
find_package(Protobuf REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
find_program(FLATC flatc REQUIRED)
find_path(FLATBUFFERS_INCLUDE_DIR flatbuffers/flatbuffers.h REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(roaring CONFIG REQUIRED)  # CRoaring (libroaring-dev): deletion bitmaps
# Optional: libnetcdf (libnetcdf-dev) for the netcdf layer (lance-nd import / export); without
# it the layer and those commands are not built.
pkg_check_modules(NETCDF IMPORTED_TARGET netcdf)
