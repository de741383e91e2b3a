// The recorder's events as a Chrome trace (the Trace Event Format: a JSON object whose
// "traceEvents" Perfetto's UI and chrome://tracing both open). One track per thread (a tid, named
// by a thread_name metadata event); a slice ("B" ... "E") for each job a worker runs; an instant
// event ("i") for everything else.
//
// A ring keeps only a thread's last events, so a slice may have lost its beginning (its end is
// dropped) or not have ended yet (it is closed at the thread's last event): every track is
// balanced.
#include <instrument/replay.hpp>

#include <vector>

namespace mini::recorder {
namespace {

struct Writer {
    std::FILE* out;
    std::uint64_t t0;
    bool first = true;

    void event(const char* ph, const std::string& name, std::uint64_t tid, std::uint64_t time,
               const std::string& args = "") {
        std::fprintf(out, "%s\n{\"ph\":\"%s\",\"pid\":1,\"tid\":%llu,\"ts\":%.3f,\"name\":\"%s\"",
                     first ? "" : ",", ph, static_cast<unsigned long long>(tid),
                     double(time - t0) / 1000.0, name.c_str());
        if (*ph == 'i') std::fprintf(out, ",\"s\":\"t\"");
        if (!args.empty()) std::fprintf(out, ",\"args\":{%s}", args.c_str());
        std::fprintf(out, "}");
        first = false;
    }
};

std::string num(std::uint64_t v) { return std::to_string(v); }

std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) q += c;
    }
    return q + "\"";
}

// The instant event's name and arguments, or "" for the kinds that open or close a slice.
std::string instant(const Event& e, const std::string& job, std::string& args) {
    const std::string sleepers = "\"sleepers read\":" + num(e.arg);
    switch (e.kind) {
    case Kind::idle: return "no work: going to sleep";
    case Kind::woken: return e.arg ? "woken" : "re-check: work found";
    case Kind::sleepy: return "sleepy on its latch";
    case Kind::inject: args = sleepers; return "inject " + job + (e.arg ? ": notify one" : "");
    case Kind::latch_set: args = sleepers; return e.arg ? "latch set: notify all" : "latch set";
    case Kind::steal:
        if (e.arg == from_injector) return "take " + job + " from the injector";
        return "steal " + job + " from worker " + num(e.arg);
    case Kind::b_stolen: return "stolen " + job + " is back";
    case Kind::block_wait: return "block on the latch of " + job;
    default: return "";
    }
}

} // namespace

void write_chrome_trace(std::FILE* out) {
    const std::vector<Thread> threads = snapshot();
    const std::vector<Entry> all = merge(threads);
    Jobs jobs;
    for (const Entry& x : all) jobs.see(*x.event);

    Writer w{out, all.empty() ? 0 : all.front().event->time};
    std::fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    for (const Thread& t : threads) {
        w.event("M", "thread_name", t.id, w.t0, "\"name\":" + quoted(t.name));
        w.event("M", "thread_sort_index", t.id, w.t0, "\"sort_index\":" + num(t.id));
        std::vector<std::string> open; // the slices begun on this track and not yet ended
        for (const Event& e : t.events) {
            const std::string job = "job " + num(jobs.uid(e));
            std::string args;
            if (e.kind == Kind::job_begin) {
                open.push_back(job);
                w.event("B", open.back(), t.id, e.time);
            } else if (e.kind == Kind::job_end) {
                if (open.empty() || open.back() != job) continue; // its beginning was overwritten
                w.event("E", job, t.id, e.time);
                open.pop_back();
            } else {
                const std::string name = instant(e, job, args);
                w.event("i", name, t.id, e.time, args);
            }
        }
        for (; !open.empty(); open.pop_back())
            w.event("E", open.back(), t.id, t.events.back().time, "\"unfinished\":true");
    }
    std::fprintf(out, "\n]}\n");
}

} // namespace mini::recorder
