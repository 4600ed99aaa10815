# cmake -DBUILD_DIR=<build tree> -DPREFIX=<stage> -P stage_install.cmake: install into an empty
# staging prefix, so nothing left there by an earlier install (a header since made private)
# reaches the consumer or the header checks.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
