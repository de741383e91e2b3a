// The probe handler: record, count, then let a test's hook run.
#include <instrument/instrument.hpp>

#include <instrument/recorder.hpp>

#include <array>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mini {
namespace {

enum Tally { executed, steals, b_stolen, waited_jobs, sleeps, wakeups, rechecks, tallies };

// One thread's counts: only it writes them (a relaxed load and store, no read-modify-write), a
// reader sums them under the registry's mutex. A thread's counts are folded into `retired` when
// it exits, so a snapshot still sees the work of a pool that is gone.
struct Counts {
    std::array<std::atomic<std::uint64_t>, tallies> n{};
};
struct Registry {
    std::mutex mutex;
    std::vector<const Counts*> live;
    std::array<std::uint64_t, tallies> retired{};
};
Registry& registry() {
    static Registry* const r = new Registry; // never destroyed: threads of the global pool
    return *r;                               // still probe during exit
}

// The thread's counts (null until its first), and their retirement: folded into `retired` when
// the thread exits. A probe after that (a pool destroyed by a static destructor) counts into
// `gone`, which nobody reads.
Counts gone;
thread_local Counts* mine = nullptr;
struct Retire {
    ~Retire() {
        Registry& r = registry();
        std::lock_guard lock(r.mutex);
        for (int i = 0; i < tallies; ++i) r.retired[i] += mine->n[i].load();
        std::erase(r.live, mine);
        delete std::exchange(mine, &gone);
    }
};

void add(Tally t, std::uint64_t by = 1) {
    if (mine == nullptr) [[unlikely]] { // the thread's first count
        mine = new Counts;
        {
            std::lock_guard lock(registry().mutex);
            registry().live.push_back(mine);
        }
        static thread_local Retire retire;
    }
    auto& v = mine->n[t];
    v.store(v.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

void count(Probe what, std::uint64_t arg) {
    switch (what) {
    case Probe::job_begin: add(executed); break;
    case Probe::steal: if (arg != from_injector) add(steals); break;
    case Probe::b_stolen: add(b_stolen), add(waited_jobs, arg); break;
    case Probe::woken: add(arg ? sleeps : rechecks); break;
    case Probe::notified: add(wakeups); break;
    default: break;
    }
}

// The events a reader of a hung run needs; the others are hand-off points for tests only.
bool recorded(Probe what) {
    switch (what) {
    case Probe::notified:
    case Probe::latch_stored:
    case Probe::worker_start:
    case Probe::spawn:
    case Probe::steal_before_buffer:
    case Probe::lock_latch_spin:
    case Probe::lock_latch_block:
    case Probe::scope_publish:
    case Probe::scope_spawned:
    case Probe::broadcast_push:
    case Probe::terminate: return false;
    default: return true;
    }
}

void on_probe(Probe what, const void* object, std::uint64_t arg) {
    if (what == Probe::worker_start)
        recorder::name_thread(("worker " + std::to_string(arg)).c_str());
    if (recorded(what)) recorder::record(what, object, arg);
    count(what, arg);
    if (instrument::SyncHook hook = instrument::sync_hook.load(std::memory_order_acquire))
        hook(what);
}

} // namespace

void instrument::install() { probe_handler.store(&on_probe, std::memory_order_release); }

Stats Stats::operator-(const Stats& b) const {
    return {executed - b.executed, steals - b.steals, b_stolen - b.b_stolen,
            waited_jobs - b.waited_jobs, sleeps - b.sleeps, wakeups - b.wakeups,
            rechecks - b.rechecks, sleepers, queued};
}

Stats stats(const ThreadPool& pool) {
    std::array<std::uint64_t, tallies> sum;
    {
        Registry& r = registry();
        std::lock_guard lock(r.mutex);
        sum = r.retired;
        for (const Counts* c : r.live)
            for (int i = 0; i < tallies; ++i) sum[i] += c->n[i].load(std::memory_order_relaxed);
    }
    return {sum[executed], sum[steals], sum[b_stolen], sum[waited_jobs], sum[sleeps],
            sum[wakeups], sum[rechecks], pool.sleep().sleepers(), pool.queued()};
}

} // namespace mini
