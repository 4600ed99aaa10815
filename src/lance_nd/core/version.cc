#include "lance_nd/version.h"

namespace lance_nd {

const char* VersionString() noexcept { return LANCE_ND_VERSION_STRING; }

}  // namespace lance_nd
