# lance_nd_set_warnings(target): the project's warning set; -Werror when LANCE_ND_WERROR is on.
function(lance_nd_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wshadow
                         $<$<BOOL:${LANCE_ND_WERROR}>:-Werror>)
endfunction()
