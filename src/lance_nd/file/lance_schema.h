// Shadowed by include/lance_nd/file/lance_schema.h (include/ precedes src/ on the include path);
// kept so a relative include still finds the file layer's internal Lance-schema declarations.
#pragma once

#include "lance_nd/file/lance_schema_internal.h"
