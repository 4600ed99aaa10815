// Text from outside the process (JSON documents, type names, filters) before it reaches a parser
// or a message: nesting bounded before a recursive parser, printer or destructor can run out of
// stack, and previews cut short so that a 100 MB token does not become a 100 MB message.
//
//   LND_RETURN_NOT_OK(internal::CheckJsonNesting(text, "a JSON line"));
//   ... nlohmann::json::parse(text, ...) ...
//   return Status::InvalidArgument("bad name ", internal::TextPreview(name));
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "lance_nd/core/status.h"

namespace lance_nd::internal {

/// The deepest nesting of arrays and objects every parse of an untrusted JSON document accepts.
/// Far above what any lance-nd document needs; far below what the recursive printers and
/// walkers of a parsed document can take on a thread's stack.
inline constexpr int kMaxJsonNesting = 512;

/// The length of a preview: a message quotes at most this many bytes of a value.
inline constexpr std::size_t kPreviewBytes = 200;

/// \brief `text` when it is at most `max_bytes` long; otherwise its first `max_bytes` bytes (cut
/// before a UTF-8 character that would not fit) followed by "... (N bytes in all)".
inline std::string TextPreview(std::string_view text, std::size_t max_bytes = kPreviewBytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  // Back up over continuation bytes (10xxxxxx) so that the cut is at a character boundary.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) +
         " bytes in all)";
}

/// \brief OK when no value in JSON text `text` nests more than `max_depth` arrays and objects;
/// otherwise InvalidArgument naming `what` (e.g. "a JSON line"), the byte offset where the limit
/// was passed and the limit. Counts '[' and '{' outside strings in one pass without otherwise
/// checking the syntax (the parser that runs next does), so it is cheap and never recurses.
inline Status CheckJsonNesting(std::string_view text, std::string_view what,
                               int max_depth = kMaxJsonNesting) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is, does not end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        return Status::InvalidArgument(
            what, " nests arrays and objects more than ", max_depth, " levels deep (level ",
            max_depth + 1, " opens at byte ", i, "); nest at most ", max_depth,
            " levels, e.g. by flattening the nested lists into one list with dimensions");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Status::OK();
}

}  // namespace lance_nd::internal
