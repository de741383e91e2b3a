// Must not compile: collect_vec would copy each std::unique_ptr (tests/CMakeLists.txt).
#include <mini/par.hpp>

#include <memory>
#include <vector>

std::size_t collect(std::vector<std::unique_ptr<int>>& v) { return mini::par_iter(v).collect_vec().size(); }
