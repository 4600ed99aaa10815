# cmake -DSOURCE_DIR=<repo> -DPREFIX=<stage> -P check_installed_headers.cmake: the installed
# include folder holds exactly the public headers (include/lance_nd/**.h plus the generated
# lance_nd/version.h, without the optional netcdf layer's): no core internals, no private layer
# headers, no templates.
file(GLOB_RECURSE installed RELATIVE ${PREFIX}/include ${PREFIX}/include/*)
file(GLOB_RECURSE expected RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/lance_nd/*.h)
list(FILTER expected EXCLUDE REGEX "^lance_nd/netcdf/")  # the optional layer is not installed
list(APPEND expected lance_nd/version.h)
list(SORT installed)
list(SORT expected)
if(NOT installed STREQUAL expected)
  set(extra ${installed})
  list(REMOVE_ITEM extra ${expected})
  set(missing ${expected})
  list(REMOVE_ITEM missing ${installed})
  message(FATAL_ERROR "installed headers differ from the public ones: not public [${extra}], "
                      "not installed [${missing}]")
endif()
list(LENGTH installed n)
message(STATUS "${n} installed headers, all public")
