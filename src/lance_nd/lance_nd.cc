// The shared library is made of the layer archives' objects; this file anchors the target and
// compiles the umbrella header (every public header) with the library's own flags and warnings.
#include "lance_nd/lance_nd.h"
