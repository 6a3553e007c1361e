#pragma once
#include <string>

namespace pvi::output {

// pvic's version (the CMake project version), written in output headers.
std::string pvicVersion();

// The current time as "YYYY-MM-DD HH:MM:SS UTC", CmdStan's start_datetime format.
std::string currentUtcDatetime();

}  // namespace pvi::output
