# cmake -DINCLUDE_DIR=<include> -P check_export_marks.cmake
# Every public header marks what the library must export: each non-template class or struct
# defined at namespace scope, and each function declared there without a body, carries
# LANCE_ND_EXPORT (lance_nd/export.h). Inline functions, templates defined in the header, the
# C structs of the Arrow C ABI and internal / detail namespaces need no mark. Line-based: the
# headers follow .clang-format, so a declaration starts at column 0.
file(GLOB_RECURSE headers ${INCLUDE_DIR}/lance_nd/*.h)
set(unmarked "")
set(checked 0)
foreach(header IN LISTS headers)
  file(READ ${header} text)
  if(text MATCHES "extern \"C\" {")
    continue()  # plain C structs (array/c_abi.h)
  endif()
  # One list item per line: protect what CMake lists treat specially.
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<lb>" text "${text}")
  string(REPLACE "]" "<rb>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(in_internal FALSE)
  set(previous "")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "^namespace (internal|detail) {")
      set(in_internal TRUE)
    elseif(line MATCHES "^}  // namespace (internal|detail)")
      set(in_internal FALSE)
    endif()
    set(what "")
    if(in_internal OR line MATCHES "LANCE_ND_EXPORT")
      # nothing to mark, or marked
    elseif(line MATCHES "^(class|struct) " AND NOT line MATCHES "<semicolon>$"
           AND NOT previous MATCHES "^template")
      set(what "class")
    elseif(line MATCHES "^[A-Za-z_]" AND line MATCHES "\\("
           AND NOT line MATCHES "^(inline|constexpr|template|using|namespace|class|struct|enum|static_assert|typedef|extern|friend|return) "
           AND NOT line MATCHES "{$")
      set(what "function")
    endif()
    if(what)
      math(EXPR checked "${checked} + 1")
      file(RELATIVE_PATH name ${INCLUDE_DIR} ${header})
      string(REPLACE "<semicolon>" ";" shown "${line}")
      string(REPLACE "<lb>" "[" shown "${shown}")
      string(REPLACE "<rb>" "]" shown "${shown}")
      string(APPEND unmarked "  ${name}:${number}: ${what}: ${shown}\n")
    elseif(line MATCHES "LANCE_ND_EXPORT")
      math(EXPR checked "${checked} + 1")
    endif()
    set(previous "${line}")
  endforeach()
endforeach()
if(NOT unmarked STREQUAL "")
  message(FATAL_ERROR "public declarations without LANCE_ND_EXPORT:\n${unmarked}")
endif()
message(STATUS "${checked} public declarations, all marked LANCE_ND_EXPORT")
