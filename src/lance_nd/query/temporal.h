// Reading and writing dates and timestamps as text (the forms SQL literals use).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/array/type.h"

namespace lance_nd::query {

/// \brief Days since 1970-01-01 of a proleptic Gregorian date.
std::int64_t DaysFromCivil(std::int64_t year, unsigned month, unsigned day);

/// \brief "YYYY-MM-DD" to days since the epoch; nullopt if malformed.
std::optional<std::int64_t> ParseDate(std::string_view text);

/// \brief "YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]][Z|+HH:MM|-HH:MM]" to ticks of `unit` since
/// the epoch (UTC; no offset means UTC); nullopt if malformed or out of range.
std::optional<std::int64_t> ParseTimestamp(std::string_view text, array::TimeUnit unit);

/// \brief "YYYY-MM-DD".
std::string FormatDate(std::int64_t days);
/// \brief "YYYY-MM-DDTHH:MM:SS" plus the fraction the unit has.
std::string FormatTimestamp(std::int64_t ticks, array::TimeUnit unit);

}  // namespace lance_nd::query
