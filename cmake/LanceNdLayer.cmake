# Layers are sealed: a layer's sources, its tests and its fuzz targets see their own private
# headers (src/lance_nd/<layer>/), core's internal helpers (src/lance_nd/core/internal/) and the
# public headers (include/), nothing else. Including another layer's private header fails with
# "file not found" (tests/sealed_layers proves it).
#
# How, without moving sources: each layer gets a private include root in the build tree whose
# only entry is a symbolic link lance_nd/<layer> -> src/lance_nd/<layer>, so that
# "lance_nd/<layer>/x.h" resolves to src/lance_nd/<layer>/x.h for that layer alone.

# lance_nd_private_root(<out-var> <name> <dir under lance_nd/> <source folder>): the include root
# private_include/<name> (created at configure time) holding lance_nd/<dir> -> <source folder>.
function(lance_nd_private_root out name dir source)
  set(root ${PROJECT_BINARY_DIR}/private_include/${name})
  set(link ${root}/lance_nd/${dir})
  get_filename_component(parent ${link} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  if(IS_SYMLINK ${link})
    file(READ_SYMLINK ${link} current)
    if(NOT current STREQUAL source)
      file(REMOVE ${link})
    endif()
  endif()
  if(NOT EXISTS ${link})
    file(CREATE_LINK ${source} ${link} SYMBOLIC)
  endif()
  set(${out} ${root} PARENT_SCOPE)
endfunction()

# Core's internal helpers (thread pool, checked math, little-endian loads, huge-page advice,
# JSON string quoting):
# shared by every layer, never installed, not part of the API.
lance_nd_private_root(core_internal_root core_internal core/internal
                      ${PROJECT_SOURCE_DIR}/src/lance_nd/core/internal)
add_library(lance_nd_core_internal INTERFACE)
target_include_directories(lance_nd_core_internal INTERFACE
                           $<BUILD_INTERFACE:${core_internal_root}>)

# lance_nd_use_private_headers(<target> <layer>): `target` is part of `layer` (its test binary,
# a fuzz target of that layer, a white-box test tool) and may include the layer's private
# headers. The layer's private dependencies (generated protobuf / flatbuffers headers) come
# with it.
function(lance_nd_use_private_headers target layer)
  get_target_property(root lance_nd_${layer} LANCE_ND_PRIVATE_ROOT)
  get_target_property(private_deps lance_nd_${layer} LANCE_ND_PRIVATE_DEPS)
  target_include_directories(${target} PRIVATE ${root})
  target_link_libraries(${target} PRIVATE lance_nd_core_internal ${private_deps})
endfunction()

# lance_nd_add_layer(NAME <layer> DEPS <targets...> [PRIVATE_DEPS <targets...>])
#   A static library lance_nd_<layer> from src/lance_nd/<layer>/**.cc (tests excluded), and,
#   when tests are on, one GoogleTest binary lance_nd_<layer>_test from **/*_test.cc.
#   A layer links only the layers below it, so a call into an undeclared layer fails to link.
#   Its objects are compiled with hidden visibility: the shared library lance_nd exports only
#   what the public headers mark LANCE_ND_EXPORT.
function(lance_nd_add_layer)
  cmake_parse_arguments(L "" "NAME" "DEPS;PRIVATE_DEPS;TEST_DEPS" ${ARGN})
  set(dir ${PROJECT_SOURCE_DIR}/src/lance_nd/${L_NAME})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.cc)
  file(GLOB_RECURSE tests CONFIGURE_DEPENDS ${dir}/*_test.cc)
  if(tests)
    list(REMOVE_ITEM srcs ${tests})
  endif()
  set(target lance_nd_${L_NAME})
  if(NOT srcs)  # a layer not written yet still gets a (empty) library
    set(srcs ${PROJECT_SOURCE_DIR}/cmake/empty.cc)
  endif()
  lance_nd_private_root(private_root ${L_NAME} ${L_NAME} ${dir})
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
           $<BUILD_INTERFACE:${LANCE_ND_GENERATED_INCLUDE_DIR}>
    PRIVATE ${private_root})
  target_link_libraries(${target} PUBLIC ${L_DEPS}
                        PRIVATE lance_nd_core_internal ${L_PRIVATE_DEPS})
  set_target_properties(${target} PROPERTIES LANCE_ND_PRIVATE_ROOT ${private_root}
                        LANCE_ND_PRIVATE_DEPS "${L_PRIVATE_DEPS}"
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  lance_nd_set_warnings(${target})
  if(LANCE_ND_BUILD_TESTS AND tests)
    add_executable(${target}_test ${tests})
    target_link_libraries(${target}_test PRIVATE ${target} ${L_TEST_DEPS}
                          lance_nd_testing GTest::gtest GTest::gmock GTest::gtest_main)
    lance_nd_use_private_headers(${target}_test ${L_NAME})
    lance_nd_set_warnings(${target}_test)
    # Tests that run node fail instead of skipping where the build requires the oracle
    # (testing/test_env.h, cmake/LanceNdOracle.cmake).
    set(require_oracle 0)
    if(LANCE_ND_REQUIRE_INTEROP)
      set(require_oracle 1)
    endif()
    gtest_discover_tests(${target}_test
      # A unit test takes seconds; a hang (a deadlock) fails after 10 minutes instead of
      # holding CI.
      PROPERTIES LABELS unit TIMEOUT 600 ENVIRONMENT "LANCE_ND_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
                 ENVIRONMENT_MODIFICATION "LANCE_ND_REQUIRE_ORACLE=set:${require_oracle}"
      DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
