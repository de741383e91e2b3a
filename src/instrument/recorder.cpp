// The recorder's registry: which track belongs to which thread, and reading the tracks back.
// Everything here is off the recording path: a thread takes the mutex once to register and once
// when it exits; readers take it to copy the tracks.
#include <instrument/replay.hpp>

#include <algorithm>
#include <cstdio>
#include <mutex>

namespace mini::recorder {
namespace {

constexpr std::size_t max_tracks = 128; // threads recorded at once; more share `overflow`

struct Registry {
    std::mutex mutex;
    Track tracks[max_tracks]; // zero-initialised: 4 MiB of untouched pages until used
    struct Meta {
        std::uint64_t id = 0; // 0: never used
        bool live = false;
        std::uint64_t retired = 0; // when it was given back, in `clock` ticks
        char name[32] = {};
    } meta[max_tracks];
    std::uint64_t ids = 0, clock = 0;
    Track overflow; // for threads beyond max_tracks and for events after a thread's exit: never read
};
Registry registry;

std::size_t index_of(const Track* t) { return static_cast<std::size_t>(t - registry.tracks); }

// Gives the track back when its thread exits; its events stay readable until a new thread
// reuses it (the oldest given back first).
struct Retire {
    Track* track;
    ~Retire() {
        if (track != &registry.overflow) {
            std::lock_guard lock(registry.mutex);
            auto& m = registry.meta[index_of(track)];
            m.live = false;
            m.retired = ++registry.clock;
        }
        detail::current = &registry.overflow;
    }
};

} // namespace

Track* detail::register_thread() noexcept {
    Track* track = &registry.overflow;
    {
        std::lock_guard lock(registry.mutex);
        std::size_t best = max_tracks;
        for (std::size_t i = 0; i < max_tracks; ++i) {
            const auto& m = registry.meta[i];
            if (m.live) continue;
            if (best == max_tracks || m.retired < registry.meta[best].retired) best = i;
        }
        if (best < max_tracks) {
            auto& m = registry.meta[best];
            m.id = ++registry.ids;
            m.live = true;
            std::snprintf(m.name, sizeof m.name, "thread %llu",
                          static_cast<unsigned long long>(m.id));
            track = &registry.tracks[best];
            track->count.store(0, std::memory_order_relaxed); // the new owner's first write
        }
    }
    static thread_local Retire retire{track};
    current = track;
    return track;
}

void name_thread(const char* name) noexcept {
    if constexpr (enabled) {
        Track* track = detail::current ? detail::current : detail::register_thread();
        if (track == &registry.overflow) return;
        std::lock_guard lock(registry.mutex);
        std::snprintf(registry.meta[index_of(track)].name, sizeof(Registry::Meta::name), "%s",
                      name);
    }
}

std::vector<Thread> snapshot() {
    std::vector<Thread> out;
    std::lock_guard lock(registry.mutex);
    for (std::size_t i = 0; i < max_tracks; ++i) {
        const auto& m = registry.meta[i];
        const Track& t = registry.tracks[i];
        const std::uint64_t count = t.count.load(std::memory_order_relaxed);
        if (m.id == 0) continue; // a thread that recorded nothing still gets its (empty) track
        Thread th{m.id, m.name, m.live, {}};
        for (std::uint64_t n = count > capacity ? count - capacity : 0; n < count; ++n)
            if (Event e; t.ring[n % capacity].read(n, e)) th.events.push_back(e);
        out.push_back(std::move(th));
    }
    std::sort(out.begin(), out.end(), [](const Thread& a, const Thread& b) { return a.id < b.id; });
    return out;
}

std::vector<Entry> merge(const std::vector<Thread>& threads) {
    std::vector<Entry> all;
    for (const Thread& t : threads)
        for (std::size_t i = 0; i < t.events.size(); ++i) all.push_back({&t, &t.events[i], i});
    std::stable_sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        return a.event->time < b.event->time;
    });
    return all;
}

std::uint64_t Jobs::see(const Event& e) {
    std::uint64_t uid = 0;
    auto fresh = [&]() -> Live& {
        return by_address_[e.object] = {uid = ++next_, false, false};
    };
    auto it = by_address_.find(e.object);
    const bool pending = it != by_address_.end() && !it->second.ended;
    switch (e.kind) {
    case Kind::inject: // recorded after the push: a taker may have come first (unannounced)
        if (it != by_address_.end() && it->second.unannounced) {
            uid = it->second.uid;
            it->second.unannounced = false;
        } else {
            fresh();
        }
        break;
    case Kind::steal: // a stolen B was never pushed on record: a new job, unless it was injected
        if (pending && !it->second.begun) uid = it->second.uid;
        else fresh().unannounced = e.arg == from_injector;
        break;
    case Kind::job_begin:
    case Kind::job_end:
    case Kind::block_wait:
        if (pending) uid = it->second.uid;
        else fresh();
        it = by_address_.find(e.object);
        it->second.begun |= e.kind == Kind::job_begin;
        it->second.ended |= e.kind == Kind::job_end;
        break;
    case Kind::b_stolen: // the owner's B is back: the job its thief ran, which has ended
        if (it != by_address_.end()) uid = it->second.uid;
        else fresh();
        break;
    default: break;
    }
    uids_[&e] = uid;
    return uid;
}

// ---- the --trace file ----------------------------------------------------------------------

namespace {
std::FILE* trace_file = nullptr;
}

bool open_trace(const std::string& path) {
    if (!enabled) return false;
    trace_file = std::fopen(path.c_str(), "w");
    return trace_file != nullptr;
}

void finish_trace() {
    if (trace_file == nullptr) return;
    write_chrome_trace(trace_file);
    std::fclose(trace_file);
    trace_file = nullptr;
}

} // namespace mini::recorder
