// compare's mini-pw column, compiled only into the mini_pw copy of the core (compare/pw.hpp).
// Nothing here may include a header that defines an inline function in namespace app calling
// the core (fib.hpp's app::fib, common.hpp): -Dmini=mini_pw would give it a second definition.
#include "pw.hpp" // apps/compare/pw.hpp

#include <chrono>

#include <mini/pool.hpp>
#include <mini/splitter.hpp>

namespace mini {
namespace {

double now() { // app::now() (common.hpp)
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class Pool final : public app::ComparePool {
public:
    explicit Pool(std::size_t threads) : pool_(threads) {}
    std::uint64_t fib(unsigned n, unsigned cutoff, double& started) override {
        return pool_.install([&] { return started = now(), mini::fib(n, cutoff); });
    }
    std::uint64_t sum(const std::vector<std::uint64_t>& values, double& started) override {
        return pool_.install([&] { return started = now(), mini::sum(pool_, values); });
    }
    void trip(std::atomic<std::uint64_t>& executed) override {
        pool_.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
    }
    app::SleepCounts counts() const override { return sleep_counts(); }

private:
    ThreadPool pool_;
};

} // namespace

std::unique_ptr<app::ComparePool> compare_pool(std::size_t threads) {
    sleep_counts(); // the copy's counting handler, from before its threads start
    return std::make_unique<Pool>(threads);
}

} // namespace mini
