// LANCE_ND_EXPORT marks the classes and functions the shared library liblance_nd exports. The
// library is compiled with hidden visibility, so whatever a public header does not mark stays
// inside it.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define LANCE_ND_EXPORT [[gnu::visibility("default")]]
#else
#define LANCE_ND_EXPORT
#endif
