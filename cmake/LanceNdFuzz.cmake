# With LANCE_ND_FUZZ (clang only) every target of the project -- each layer library, our
# protobuf-generated code, the tools and tests -- is compiled with libFuzzer's coverage
# instrumentation and with AddressSanitizer and UBSan, so the fuzz targets (fuzz/) get edges from
# the decoders they drive and every memory access inside them is checked. A UBSan report aborts
# (-fno-sanitize-recover) so that libFuzzer records it as a crash. Only the fuzz targets link
# libFuzzer's main (-fsanitize=fuzzer, fuzz/CMakeLists.txt).
if(LANCE_ND_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LANCE_ND_FUZZ needs clang (found ${CMAKE_CXX_COMPILER_ID}); "
                        "configure with the fuzz preset or CMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
