# cmake -DNM=<nm> -DLIBRARY=<liblance_nd.so> -P check_exported_symbols.cmake
# Reads the dynamic symbol table twice in the same order, mangled (which namespace a symbol
# lives in, whatever its return type) and demangled (what it is, for the messages).
foreach(form IN ITEMS mangled demangled)
  set(demangle "")
  if(form STREQUAL "demangled")
    set(demangle -C)
  endif()
  execute_process(COMMAND ${NM} -D --defined-only --no-sort ${demangle} ${LIBRARY}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed: ${err}")
  endif()
  string(REPLACE ";" "\\;" listing "${listing}")
  string(REGEX REPLACE "\n$" "" listing "${listing}")
  string(REPLACE "\n" ";" ${form} "${listing}")
  # "<address> <type> <name>" -> "<name>"
  list(TRANSFORM ${form} REPLACE "^[0-9a-fA-F]* *[A-Za-z] " "")
endforeach()
list(LENGTH mangled n)
list(LENGTH demangled n_demangled)
if(NOT n EQUAL n_demangled OR n EQUAL 0)
  message(FATAL_ERROR "could not read the symbols of ${LIBRARY} (${n} / ${n_demangled})")
endif()

# Symbols the linker defines in every shared object.
set(linker_symbols _init _fini _edata _end __bss_start)
# A mangled name in namespace lance_nd: a function or object (_ZN, _ZNK for const members), or
# the vtable, VTT, typeinfo, typeinfo name, guard variable or thunk of one.
set(in_lance_nd "^_Z(TV|TT|TI|TS|GV|Th-?n?[0-9]+_|Tv[^_]*_[^_]*_)?N[KVRO]*8lance_nd")
set(bad "")
set(names "\n")
set(count 0)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  list(GET mangled ${i} symbol)
  list(GET demangled ${i} name)
  list(FIND linker_symbols "${symbol}" linker)
  if(linker GREATER -1)
    continue()
  endif()
  math(EXPR count "${count} + 1")
  string(APPEND names "${name}\n")
  string(REGEX REPLACE "\\(.*" "" qualified "${name}")  # the name, without its parameters
  if(name MATCHES "protobuf|flatbuffers|(^|[^_A-Za-z0-9])lance::")
    string(APPEND bad "  generated or third-party code: ${name}\n")
  elseif(qualified MATCHES "(^|[^_A-Za-z0-9])(internal|detail)::")
    string(APPEND bad "  internal: ${name}\n")
  elseif(NOT symbol MATCHES "${in_lance_nd}")
    string(APPEND bad "  outside lance_nd: ${name}\n")
  endif()
endforeach()

# Entry points of every layer that must stay exported.
set(required
    "lance_nd::Status::ToString"
    "lance_nd::VersionString()"
    "lance_nd::array::ipc::ReadIpcStream("
    "lance_nd::nd::NdArrowArray::Make("
    "lance_nd::io::LocalFileSystem()"
    "lance_nd::file::FileReader::Open("
    "lance_nd::file::FileWriter::Open("
    "lance_nd::table::Dataset::Open("
    "lance_nd::table::WriteTable("
    "typeinfo for lance_nd::io::FileSystem")
foreach(symbol IN LISTS required)
  string(FIND "${names}" "\n${symbol}" at)
  if(at EQUAL -1)
    string(APPEND bad "  missing entry point: ${symbol}\n")
  endif()
endforeach()

if(NOT bad STREQUAL "")
  message(FATAL_ERROR "${LIBRARY} exports what it must not (or misses what it must):\n${bad}")
endif()
message(STATUS "${count} exported symbols, all public lance_nd API")
