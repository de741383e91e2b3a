// The chain: the workload where NO_STEAL_WAIT's cost is structural, for the steal_wait driver.
//
// Level k of the chain is join(leaf, chain(k - 1)): A, which the owner runs, is one small leaf; B,
// which a thief takes, is the whole rest of the chain. So an owner is soon done with A and waits
// for a stolen B that is nearly all the work. As built, the waiting owner steals from B's thief,
// and both cores work to the end. With NO_STEAL_WAIT it only waits: after the first steal one
// worker runs the chain alone while the other sits idle (in fib the owner's A is the larger
// half, so a waiting owner is rare there and the difference drowns in noise).
//
// chain.cpp is compiled twice: once as it is, and once with its namespace renamed
// (-Dmini=mini_nsw) next to a copy of the core built with NO_STEAL_WAIT on (apps/CMakeLists.txt).
// The two copies share no symbol, so the driver runs the right variant and the broken one side by
// side in one process, on the same machine at the same moment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace app {

struct ChainRun {
    double secs;
    std::uint64_t sum;    // of every leaf's value: checked against chain_value
    std::uint64_t waited; // jobs run by owners while waiting for a stolen B
};

// A pool of its own and the chain on it.
class ChainPool {
public:
    virtual ~ChainPool() = default;
    virtual ChainRun run(std::size_t levels, std::uint64_t leaf_iters) = 0;
    virtual std::uint64_t leaves_done() const = 0; // for the watchdog
};

// The leaf: `iters` rounds of a 64-bit LCG from the level's seed (no closed form the compiler
// would find, so every leaf does its work).
inline std::uint64_t chain_leaf(std::uint64_t level, std::uint64_t iters) {
    std::uint64_t x = level;
    for (std::uint64_t i = 0; i < iters; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
    return x >> 33;
}

// The value the chain must produce, computed serially.
inline std::uint64_t chain_value(std::size_t levels, std::uint64_t iters) {
    std::uint64_t sum = 0;
    for (std::size_t k = 1; k <= levels; ++k) sum += chain_leaf(k, iters);
    return sum;
}

} // namespace app

namespace mini { // the core as built
std::unique_ptr<app::ChainPool> chain_pool(std::size_t threads);
}
namespace mini_nsw { // the copy with NO_STEAL_WAIT on
std::unique_ptr<app::ChainPool> chain_pool(std::size_t threads);
}
