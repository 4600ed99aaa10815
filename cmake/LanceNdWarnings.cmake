# lance_nd_set_warnings(target): the project's warning set; -Werror when LANCE_ND_WERROR is on.
function(lance_nd_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wshadow
                         $<$<BOOL:${LANCE_ND_WERROR}>:-Werror>)
  # g++ 12 reports -Wrestrict inside libstdc++ for `"literal" + std::string&&` once it inlines at
  # -O2 and above (GCC bug 105651, fixed in g++ 13): a false positive in the library, not in
  # our code, which would fail every optimised -Werror build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
