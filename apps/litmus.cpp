// litmus: store buffering caught in the act (Preshing, "Memory Reordering Caught in the Act").
//
//   thread 0:  X = trial;  [order];  r0 = Y        thread 1:  Y = trial;  [order];  r1 = X
//
// If neither thread saw the other's store (r0 and r1 both older than this trial), the store of
// each was still in its core's store buffer when the load ran: a store moved after a later load.
// The sleep protocol of chapter 2 is this shape (the worker registers then re-checks for work, the
// publisher pushes work then reads the sleeper count), so both-old there is a lost wake-up.
// Three orders between the store and the load:
//   none    a compiler barrier only: both-old is allowed, and x86 shows it;
//   fences  a seq_cst fence in each thread (the pool's two fences): both-old is forbidden;
//   rmw     the store made an exchange (relaxed): on x86 that is a locked instruction, which
//           drains the store buffer, so both-old vanishes -- by the hardware, not by the standard.
// As in Preshing's program, the two threads are pinned to two different cores (on one core they
// share one store buffer and never reorder), and each trial starts with both threads at a spin
// barrier and a short random delay, so that the two windows overlap often. The trial number is the
// value stored, so nothing is reset between trials.
#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include <mini/cpu_relax.hpp>

#include "common.hpp"
#include "platform.hpp"

namespace {

enum class Order { none, fences, rmw };

struct Shared {
    alignas(64) std::atomic<std::uint64_t> x{0};
    alignas(64) std::atomic<std::uint64_t> y{0};
    alignas(64) std::atomic<std::uint64_t> arrived{0}; // the barrier; also the watchdog's progress
    alignas(64) std::uint64_t seen[2][2]{};            // [trial parity][thread]: what the load read
};

// Both threads wait here for each other before trial i: `target` is twice the trials begun.
void arrive_and_wait(std::atomic<std::uint64_t>& arrived, std::uint64_t target) {
    arrived.fetch_add(1, std::memory_order_acq_rel);
    for (unsigned spins = 0; arrived.load(std::memory_order_acquire) < target; ++spins) {
        mini::cpu_relax();
        if (spins > 1000) std::this_thread::yield(); // the other thread is not running
    }
}

// A random 0..7 iterations of an empty loop (xorshift), so that the two stores do not always
// leave the barrier in the same order.
void random_delay(std::uint32_t& state) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    for (std::uint32_t k = state % 8; k > 0; --k) asm volatile("");
}

template <Order order>
std::uint64_t store_then_load(std::atomic<std::uint64_t>& mine, std::atomic<std::uint64_t>& other,
                              std::uint64_t trial) {
    if constexpr (order == Order::rmw)
        mine.exchange(trial, std::memory_order_relaxed);
    else
        mine.store(trial, std::memory_order_relaxed);
    if constexpr (order == Order::fences)
        std::atomic_thread_fence(std::memory_order_seq_cst);
    else
        std::atomic_signal_fence(std::memory_order_seq_cst); // the compiler keeps the order
    return other.load(std::memory_order_relaxed);
}

// Runs `trials` trials; returns how many ended with both loads reading an older value.
template <Order order>
std::uint64_t count_both_old(Shared& s, std::uint64_t trials, const std::vector<int>& cpus) {
    s.x = 0;
    s.y = 0;
    const std::uint64_t base = s.arrived.load();
    std::uint64_t both_old = 0;
    auto both_old_in = [&](std::uint64_t trial) {
        const std::uint64_t* r = s.seen[trial & 1];
        return r[0] < trial && r[1] < trial;
    };
    auto side = [&](int t) {
        std::optional<app::platform::Pin> pin; // best effort: unpinned still works
        if (cpus.size() == 2) pin.emplace(cpus[t]);
        std::uint32_t rng = 0x9e3779b9u * (t + 1);
        std::atomic<std::uint64_t>& mine = t ? s.y : s.x;
        std::atomic<std::uint64_t>& other = t ? s.x : s.y;
        for (std::uint64_t trial = 1; trial <= trials; ++trial) {
            arrive_and_wait(s.arrived, base + 2 * trial);
            random_delay(rng);
            s.seen[trial & 1][t] = store_then_load<order>(mine, other, trial);
            // The previous trial's two results are complete: thread 1 wrote its result before
            // arriving at this trial's barrier, and writes that slot again only after the next.
            if (t == 0 && trial > 1) both_old += both_old_in(trial - 1);
        }
    };
    std::thread other(side, 1);
    side(0);
    other.join();
    return both_old + both_old_in(trials);
}

} // namespace

int main(int argc, char** argv) {
    app::banner("litmus");
    app::Args cli{"Store buffering: two threads each store to one variable and load the other;\n"
                  "counts the trials where both loads read the old value, with no fence, with\n"
                  "two seq_cst fences, and with the store made a relaxed exchange (an RMW).\n"
                  "Exit codes: 0 ok, 1 the fences let a reordering through (impossible),\n"
                  "2 usage error, 3 watchdog (no progress)."};
    std::uint64_t trials = 1000000;
    double watchdog_s = 5;
    cli.add("TRIALS", trials, "trials per variant", {1, 1000000000});
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    std::vector<int> cpus = app::platform::allowed_cpus(); // read before any thread is pinned
    if (cpus.size() > 2) cpus.resize(2);
    fmt::print("store buffering, {} trials per variant: "
               "X = 1; r0 = Y  ||  Y = 1; r1 = X  -- counted: r0 and r1 both old\n",
               trials);
    if (cpus.size() == 2)
        fmt::print("the two threads pinned to CPUs {} and {}\n", cpus[0], cpus[1]);
    else if (app::platform::missing)
        fmt::print("platform: {}\n", app::platform::missing);
    else
        fmt::print("one CPU only: the threads share a store buffer, no reordering can show\n");
    std::fflush(stdout);
    Shared s;
    std::atomic<const char*> variant{""};
    mini::Watchdog dog(
        "running litmus", app::seconds(watchdog_s), [&] { return s.arrived.load(); },
        [&] {
            return fmt::format("variant {}, barrier count {}", variant.load(), s.arrived.load());
        });
    auto report = [&](const char* name, const char* what, std::uint64_t n) {
        fmt::print("{:<7} {:<48} both old in {:>9} of {} trials\n", name, what, n, trials);
        std::fflush(stdout);
    };
    variant = "none";
    report("none",
           "(store; compiler barrier; load):", count_both_old<Order::none>(s, trials, cpus));
    variant = "fences";
    const std::uint64_t fenced = count_both_old<Order::fences>(s, trials, cpus);
    report("fences", "(store; seq_cst fence; load):", fenced);
    variant = "rmw";
    report("rmw", "(relaxed exchange; compiler barrier; load):",
           count_both_old<Order::rmw>(s, trials, cpus));
    return fenced == 0 ? app::ok : app::wrong_result;
}
