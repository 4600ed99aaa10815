// The Arrow C Data Interface and C Stream Interface ABI structs (plain C layout, global
// namespace). The include guards are the ones the Arrow specification fixes, so this header can
// be combined with Arrow C++'s or nanoarrow's copy of the same declarations in one program.
#pragma once

#include <stdint.h>  // NOLINT(modernize-deprecated-headers): shared with C code

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#ifndef ARROW_FLAG_DICTIONARY_ORDERED
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#endif
#ifndef ARROW_FLAG_NULLABLE
#define ARROW_FLAG_NULLABLE 2
#endif
#ifndef ARROW_FLAG_MAP_KEYS_SORTED
#define ARROW_FLAG_MAP_KEYS_SORTED 4
#endif

/// Describes a type (format string), a field name, its flags and metadata, and its children.
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);  // NULL once released
  void* private_data;
};

/// Describes the buffers and children of one array; the type comes from a separate ArrowSchema.
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);  // NULL once released
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

/// A pull-based stream of arrays (record batches as struct arrays) of one schema. Callbacks
/// return 0 or an errno value; get_next signals the end by leaving out->release NULL.
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);  // NULL once released
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}  // extern "C"
#endif
