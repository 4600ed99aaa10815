# lance_nd_add_layer(NAME <layer> DEPS <targets...> [PRIVATE_DEPS <targets...>])
#   A static library lance_nd_<layer> from src/lance_nd/<layer>/**.cc (tests excluded), and,
#   when tests are on, one GoogleTest binary lance_nd_<layer>_test from **/*_test.cc.
#   A layer links only the layers below it, so a call into an undeclared layer fails to link.
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
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)
  target_link_libraries(${target} PUBLIC ${L_DEPS} PRIVATE ${L_PRIVATE_DEPS})
  lance_nd_set_warnings(${target})
  if(LANCE_ND_BUILD_TESTS AND tests)
    add_executable(${target}_test ${tests})
    target_link_libraries(${target}_test PRIVATE ${target} ${L_PRIVATE_DEPS} ${L_TEST_DEPS}
                          lance_nd_testing GTest::gtest GTest::gmock GTest::gtest_main)
    lance_nd_set_warnings(${target}_test)
    gtest_discover_tests(${target}_test
      PROPERTIES LABELS unit ENVIRONMENT "LANCE_ND_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
      DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
