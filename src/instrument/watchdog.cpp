#include <instrument/watchdog.hpp>

#include <instrument/replay.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace mini {

Watchdog::Watchdog(std::string what, std::chrono::milliseconds timeout,
                   std::function<std::uint64_t()> progress, std::function<std::string()> report)
    : what_(std::move(what)), timeout_(timeout), progress_(std::move(progress)),
      report_(std::move(report)), thread_([this] { monitor(); }) {}

Watchdog::~Watchdog() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
}

void Watchdog::monitor() {
    using clock = std::chrono::steady_clock;
    using std::chrono::milliseconds;
    // A tenth of the timeout, but at least 1 ms: below 10 ms a tenth would round to 0 and turn
    // wait_for into a busy loop.
    const auto poll = std::clamp(timeout_ / 10, milliseconds(1), milliseconds(100));
    std::uint64_t last = progress_();
    auto last_change = clock::now();
    std::unique_lock lock(mutex_);
    while (!cv_.wait_for(lock, poll, [this] { return stop_; })) {
        const std::uint64_t now = progress_();
        if (now != last) {
            last = now;
            last_change = clock::now();
        } else if (clock::now() - last_change >= timeout_) {
            std::fprintf(stderr, "WATCHDOG: no progress for %.1f s while %s: %s\n",
                         std::chrono::duration<double>(timeout_).count(), what_.c_str(),
                         report_().c_str());
            recorder::print_timeline(stderr); // how it got here, from the flight recorder
            recorder::finish_trace();         // and the --trace file, if one was asked for
            std::fprintf(stderr, "WATCHDOG: deadlock, exiting with code %d\n", exit_code);
            std::fflush(stderr);
            std::fflush(stdout);
            std::_Exit(exit_code);
        }
    }
}

} // namespace mini
