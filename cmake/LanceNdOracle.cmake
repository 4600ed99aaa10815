# The interop oracle: node with LanceDB 0.39 and apache-arrow installed in interop/ (make setup).
# Found once; the interop tests of every folder are added when LANCE_ND_ORACLE is ON.
# With LANCE_ND_REQUIRE_INTEROP (on in the dev preset, which `make test` uses) a missing oracle
# fails the configure step: interop tests are never silently left out.
option(LANCE_ND_REQUIRE_INTEROP "Fail when node or the interop oracle is missing" OFF)
find_program(NODE node)
if(NODE AND EXISTS "${NODE}" AND EXISTS ${PROJECT_SOURCE_DIR}/interop/node_modules/@lancedb/lancedb
   AND EXISTS ${PROJECT_SOURCE_DIR}/interop/node_modules/apache-arrow)
  set(LANCE_ND_ORACLE ON)
else()
  set(LANCE_ND_ORACLE OFF)
  if(LANCE_ND_REQUIRE_INTEROP)
    message(FATAL_ERROR
      "the interop tests need node and the oracle in interop/node_modules (found node: ${NODE}); "
      "run make setup, or configure with -DLANCE_ND_REQUIRE_INTEROP=OFF to build without them")
  endif()
  message(STATUS "node or interop/node_modules missing: interop tests not added")
endif()
