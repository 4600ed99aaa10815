# cmake -DINCLUDE_DIR=<include> -P check_umbrella.cmake: fails naming every public header that
# lance_nd/lance_nd.h does not include, and every include of it that is not a public header.
set(umbrella ${INCLUDE_DIR}/lance_nd/lance_nd.h)
file(STRINGS ${umbrella} lines REGEX "^#include \"")
set(included)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" h "${line}")
  list(APPEND included ${h})
endforeach()

file(GLOB_RECURSE headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/lance_nd/*.h
     ${INCLUDE_DIR}/lance_nd/*.h.in)
list(TRANSFORM headers REPLACE "\\.h\\.in$" ".h")  # generated: lance_nd/version.h
list(REMOVE_ITEM headers lance_nd/lance_nd.h)
# The optional netcdf layer is not part of the library the umbrella header belongs to.
list(FILTER headers EXCLUDE REGEX "^lance_nd/netcdf/")

set(missing ${headers})
list(REMOVE_ITEM missing ${included})
set(unknown ${included})
list(REMOVE_ITEM unknown ${headers})
if(missing OR unknown)
  message(FATAL_ERROR "lance_nd/lance_nd.h is out of date: missing [${missing}], "
                      "not a public header [${unknown}]")
endif()
list(LENGTH headers n)
message(STATUS "lance_nd/lance_nd.h includes all ${n} public headers")
