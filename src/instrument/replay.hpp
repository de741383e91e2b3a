// Reading the flight recorder (recorder.hpp): a snapshot of every thread's last events, the
// timeline and diagnosis the watchdog prints when a run hangs (timeline.cpp), and the same events
// as a Chrome trace for Perfetto or chrome://tracing (trace.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <instrument/recorder.hpp>

namespace mini::recorder {

struct Thread {
    std::uint64_t id; // registration order, from 1
    std::string name;
    bool live; // false once the thread has exited (its track is kept until a new thread needs it)
    std::vector<Event> events; // oldest first, at most `capacity`
};

// Every registered thread's track, in registration order. Relaxed loads of the rings: meant for
// threads that are done or stuck; a running thread's newest events may be missing or skipped.
std::vector<Thread> snapshot();

// One event of a snapshot, merged with the others in time order.
struct Entry {
    const Thread* thread;
    const Event* event;
    std::size_t index; // in thread->events
};
std::vector<Entry> merge(const std::vector<Thread>& threads);

// Jobs are known by their address, which is reused (a producer's StackJob sits at the same place
// on its stack round after round), so each inject, push or steal of an address that is not already
// pending starts a new job. An inject is recorded after its push, so its taker's events may come
// first: the inject then joins the job they began. Walk the merged entries in order; uid() gives
// each event's job (0: the event names no job).
class Jobs {
public:
    std::uint64_t see(const Event& e); // call for each entry, in time order; returns its uid
    std::uint64_t uid(const Event& e) const { return uids_.at(&e); }

private:
    struct Live {
        std::uint64_t uid;
        bool begun, ended;
        bool unannounced = false; // taken from the injector before its inject was on record
    };
    std::map<std::uintptr_t, Live> by_address_;
    std::map<const Event*, std::uint64_t> uids_;
    std::uint64_t next_ = 0;
};

// What the watchdog prints before it exits 3: the last `per_thread` events of every live thread,
// merged in time order, one line each, then one diagnosis line if it recognises the pattern
// (a lost wake-up, a join blocked on its own B). Nothing if the recorder is compiled out.
void print_timeline(std::FILE* out, std::size_t per_thread = 6);

// The diagnosis alone ("" if none recognised), for tests.
std::string diagnose(const std::vector<Thread>& threads);

// Writes every track as Chrome Trace Event Format JSON: one track per thread, a slice for each
// job run and each install, instant events for the rest (steals, sleeps, wake-ups, notifies).
void write_chrome_trace(std::FILE* out);

// The file `--trace` names: opened at start-up (false if it cannot be, or if the recorder is
// compiled out), written and closed by finish_trace(), at the end of the run or by the watchdog.
bool open_trace(const std::string& path);
void finish_trace();

} // namespace mini::recorder
