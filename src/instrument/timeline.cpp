// The watchdog's replay: the last events of every live thread in time order, and the diagnosis of
// the three hangs this workbook builds on purpose.
//
// A lost wake-up (NO_RECHECK) leaves this trail: a worker finds no work and goes to sleep, and
// never comes back from Sleep::sleep; a publisher (inject of a job nobody took, or the set of the
// latch that worker sleeps for) read 0 sleepers and notified nobody. Read 0, so the worker
// registered after that read (the fences order the two); a re-check then would have seen the
// work and backed out. A join blocked on its own B (BLOCK_WAIT) leaves a worker whose last event
// is the block on B's latch, B stolen by nobody. A worker blocked in a call into another pool
// (BLOCK_CROSS) leaves a worker whose last event is its inject there, the job taken by nobody.
#include <instrument/replay.hpp>

#include <algorithm>
#include <cstdarg>
#include <set>

namespace mini::recorder {
namespace {

std::string format(const char* fmt, ...) {
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    return buf;
}

// Jobs by number in the order a reader meets them: in the printed lines first.
struct Names {
    const Jobs& jobs;
    std::map<std::uint64_t, int> shown;
    std::string job(const Event& e) {
        const std::uint64_t uid = jobs.uid(e);
        auto [it, fresh] = shown.emplace(uid, int(shown.size()) + 1);
        return format("job %d", it->second);
    }
};

double micros(std::uint64_t ns) { return double(ns) / 1000.0; }
unsigned long long ull(std::uint64_t v) { return v; }

std::string describe(const Thread& t, std::size_t i, Names& names) {
    const Event& e = t.events[i];
    const char* notified = e.arg > 0 ? "" : ", notifies nobody";
    switch (e.kind) {
    case Kind::idle:
        return e.arg ? "finds no work, goes to sleep"
                     : "finds no work while it waits for a latch (a stolen B's, or a call's into "
                       "another pool), goes to sleep";
    case Kind::woken: return e.arg ? "woken" : "re-checks: work found, backs out";
    case Kind::sleepy: return "gets sleepy on the latch it waits for (SLEEPY), not yet asleep";
    case Kind::inject:
        return format("injects %s, read %llu sleeper%s%s", names.job(e).c_str(), ull(e.arg),
                      e.arg == 1 ? "" : "s", notified);
    case Kind::latch_set:
        return format("sets a latch, read %llu sleeper%s%s", ull(e.arg), e.arg == 1 ? "" : "s",
                      notified);
    case Kind::steal:
        if (e.arg == from_injector)
            return format("takes %s from the injector", names.job(e).c_str());
        return format("steals %s from worker %llu", names.job(e).c_str(), ull(e.arg));
    case Kind::job_begin: return format("runs %s", names.job(e).c_str());
    case Kind::job_end: return format("%s returns", names.job(e).c_str());
    case Kind::b_stolen:
        return format("gets its stolen B back (%s), ran %llu jobs meanwhile", names.job(e).c_str(),
                      ull(e.arg));
    case Kind::block_wait:
        return format("blocks on the latch of %s (BLOCK_WAIT)", names.job(e).c_str());
    default: return "?"; // not recorded (instrument.cpp)
    }
}

// The jobs somebody took (stole, or took from the injector) or ran.
std::set<std::uint64_t> taken(const std::vector<Entry>& all, const Jobs& jobs) {
    std::set<std::uint64_t> out;
    for (const Entry& x : all)
        if (x.event->kind == Kind::steal || x.event->kind == Kind::job_begin)
            out.insert(jobs.uid(*x.event));
    return out;
}

std::string lost_wakeup(const std::vector<Entry>& all, const Jobs& jobs, Names& names) {
    const std::set<std::uint64_t> took = taken(all, jobs);
    for (const Entry& w : all) {
        const Thread& t = *w.thread;
        if (!t.live || w.index + 1 != t.events.size() || w.event->kind != Kind::idle) continue;
        const Event& idle = *w.event;
        // Its search before going to sleep saw neither: the publication came after the event
        // before (the latch's address may be an earlier join's, set long ago).
        const std::uint64_t since = w.index > 0 ? t.events[w.index - 1].time : 0;
        const Entry* missed = nullptr; // the latest publication it missed
        for (const Entry& p : all) {
            const Event& e = *p.event;
            if (e.arg != 0 || e.time < since) continue;
            if ((e.kind == Kind::inject && took.count(jobs.uid(e)) == 0) ||
                (e.kind == Kind::latch_set && e.object == idle.object))
                missed = &p;
        }
        if (missed == nullptr) continue;
        const Event& e = *missed->event;
        const std::string what =
            e.kind == Kind::inject
                ? format("%s was injected", names.job(e).c_str())
                : format("%s was set", idle.arg ? "the terminate latch" : "the latch it waits for");
        return format("lost wake-up: %s by %s, which read 0 sleepers and notified nobody; %s "
                      "registered after that read and waited without re-checking",
                      what.c_str(), missed->thread->name.c_str(), t.name.c_str());
    }
    return "";
}

// [SLEEP=per-worker] A worker whose last event is getting sleepy on its latch, and that latch set
// after that with nobody woken: the setter's swap saw SLEEPY, not SLEEPING, and the worker went
// on to sleep although its SLEEPY -> SLEEPING step failed (SKIP_LATCH_SLEEPY).
std::string latch_set_while_sleepy(const std::vector<Entry>& all) {
    for (const Entry& w : all) {
        const Thread& t = *w.thread;
        if (!t.live || w.index + 1 != t.events.size() || w.event->kind != Kind::sleepy) continue;
        for (const Entry& p : all) {
            const Event& e = *p.event;
            if (e.kind != Kind::latch_set || e.object != w.event->object || e.arg != 0 ||
                e.time < w.event->time)
                continue;
            return format("lost wake-up: the latch %s waits for was set by %s while %s was "
                          "sleepy, not yet asleep, so the setter woke nobody; %s fell asleep "
                          "on its set latch without looking at its failed SLEEPY -> SLEEPING step",
                          t.name.c_str(), p.thread->name.c_str(), t.name.c_str(), t.name.c_str());
        }
    }
    return "";
}

std::string blocked_on_own_b(const std::vector<Entry>& all, const Jobs& jobs, Names& names) {
    for (const Entry& w : all) {
        const Thread& t = *w.thread;
        if (!t.live || w.index + 1 != t.events.size() || w.event->kind != Kind::block_wait)
            continue;
        const std::uint64_t b = jobs.uid(*w.event);
        const bool stolen = std::any_of(all.begin(), all.end(), [&](const Entry& x) {
            return x.event->kind == Kind::steal && jobs.uid(*x.event) == b;
        });
        if (stolen) continue;
        return format("%s waits on the latch of a job that sits in its own deque: %s, which it "
                      "pushed and nobody stole",
                      t.name.c_str(), names.job(*w.event).c_str());
    }
    return "";
}

// The pool's code never makes a worker inject into its own pool (it pushes onto its deque, or
// runs inline): a worker whose last event is an inject called into another pool and waits there. Waiting in its own
// pool's loop it would record more events (BLOCK_CROSS blocks its thread instead). If nobody took
// its job, that job waits for a worker of the other pool, and those may be blocked the same way.
std::string blocked_across_pools(const std::vector<Entry>& all, const Jobs& jobs, Names& names) {
    const std::set<std::uint64_t> took = taken(all, jobs);
    const Entry* stranded = nullptr;
    int blocked = 0;
    for (const Entry& w : all) {
        const Thread& t = *w.thread;
        if (!t.live || w.index + 1 != t.events.size() || w.event->kind != Kind::inject ||
            t.name.rfind("worker ", 0) != 0)
            continue;
        ++blocked;
        if (took.count(jobs.uid(*w.event)) == 0) stranded = &w;
    }
    if (stranded == nullptr) return "";
    return format("%s blocks its thread until %s, which it injected into another pool, has run, "
                  "and nobody took %s: %d worker%s block%s this way, running none of their own "
                  "pools' jobs",
                  stranded->thread->name.c_str(), names.job(*stranded->event).c_str(),
                  names.job(*stranded->event).c_str(), blocked, blocked == 1 ? "" : "s",
                  blocked == 1 ? "s" : "");
}

std::string diagnose(const std::vector<Entry>& all, const Jobs& jobs, Names& names) {
    std::string line = lost_wakeup(all, jobs, names);
    if (line.empty()) line = latch_set_while_sleepy(all);
    if (line.empty()) line = blocked_on_own_b(all, jobs, names);
    return line.empty() ? blocked_across_pools(all, jobs, names) : line;
}

} // namespace

std::string diagnose(const std::vector<Thread>& threads) {
    const std::vector<Entry> all = merge(threads);
    Jobs jobs;
    for (const Entry& x : all) jobs.see(*x.event);
    Names names{jobs, {}};
    return diagnose(all, jobs, names);
}

void print_timeline(std::FILE* out, std::size_t per_thread) {
    if constexpr (!enabled) return;
    const std::vector<Thread> threads = snapshot();
    const std::vector<Entry> all = merge(threads);
    Jobs jobs;
    for (const Entry& x : all) jobs.see(*x.event);

    // Each live thread's last events, from the last 100 ms (a thread that did nothing since is
    // not part of the story).
    constexpr std::uint64_t horizon = 100'000'000;
    std::vector<Entry> shown;
    std::size_t width = 6;
    for (const Entry& x : all)
        if (x.thread->live && x.index + per_thread >= x.thread->events.size() &&
            x.event->time + horizon >= all.back().event->time) {
            shown.push_back(x);
            width = std::max(width, x.thread->name.size());
        }
    if (shown.empty()) return;
    Names names{jobs, {}};
    // The header says what the list is: a thread idle for longer than 100 ms shows fewer events.
    std::fprintf(out, "WATCHDOG: each thread's events of the last 100 ms (up to %zu each), in "
                 "time order:\n", per_thread);
    std::fprintf(out, "%11s  %-*s  %s\n", "µs", int(width), "thread", "event");
    const std::uint64_t t0 = shown.front().event->time;
    for (const Entry& x : shown)
        std::fprintf(out, "%10.1f  %-*s  %s\n", micros(x.event->time - t0), int(width),
                     x.thread->name.c_str(), describe(*x.thread, x.index, names).c_str());
    const std::string line = diagnose(all, jobs, names);
    if (!line.empty()) std::fprintf(out, "WATCHDOG: %s\n", line.c_str());
}

} // namespace mini::recorder
