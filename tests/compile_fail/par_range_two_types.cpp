// Must not compile: two bounds of two integer types, neither an int (tests/CMakeLists.txt).
#include <mini/par.hpp>

#include <cstdint>

std::size_t count() { return mini::par_range(std::int8_t{-5}, std::int64_t{5}).count(); }
