// Jobs: JobRef, the two-word handle the deques carry, and StackJob, a job that lives in its
// creator's stack frame.
//
// A JobRef is a pointer to the job's data and a pointer to the function that runs it, so pushing a
// job never allocates: the job itself stays where its creator put it (for a join, on the stack of
// the joining thread) until its latch says it has run. A JobRef must be executed exactly once.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

namespace mini {

struct JobRef {
    void* data = nullptr;
    void (*execute_fn)(void*) noexcept = nullptr;

    // noexcept: a job must not throw (join's closures abort first, see call_or_abort; rayon
    // would propagate the panic, this workbook leaves propagation out).
    void execute() const noexcept { execute_fn(data); }
    friend bool operator==(const JobRef&, const JobRef&) = default;
};

// What a closure that returns void hands back, so that join can always return a pair.
struct Unit {
    friend bool operator==(Unit, Unit) = default;
};

template <class R>
using stored_t = std::conditional_t<std::is_void_v<R>, Unit, R>;

// Calls f(args...), turning a void result into Unit.
template <class F, class... Args>
auto call(F& f, Args&&... args) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, Args...>>) {
        f(std::forward<Args>(args)...);
        return Unit{};
    } else {
        return f(std::forward<Args>(args)...);
    }
}

[[noreturn]] inline void abort_on_exception(const char* closure, const char* what) noexcept {
    std::fprintf(stderr, "mini: an exception escaped %s: %s\n"
                         "mini: aborting before the frame unwinds (another thread may still use it)\n",
                 closure, what);
    std::abort();
}

// call(), but an exception that escapes f aborts the process right here, printing its what():
// rayon-core's AbortIfPanic (unwind.rs). join runs A and B through it because unwinding join's
// frame would pop StackJob B while a thief may still be running it, writing its result and
// setting its latch in that frame. This catch is the innermost handler, so only f's own frames
// unwind; join's frame and its callers' are left as they are (no destructor of theirs runs).
// ANCHOR: call_or_abort
template <class F, class... Args>
auto call_or_abort(const char* closure, F& f, Args&&... args) noexcept {
    try {
        return call(f, std::forward<Args>(args)...);
    } catch (const std::exception& e) {
        abort_on_exception(closure, e.what());
    } catch (...) {
        abort_on_exception(closure, "(not a std::exception)");
    }
}
// ANCHOR_END: call_or_abort

// A job on its creator's stack: the closure, a slot for its result and the latch that says "done".
// `F` is called with `migrated`: true when the job runs through its JobRef (another thread took it,
// or it was injected), or the value the owner passes to run_inline.
template <class Latch, class F>
class StackJob {
public:
    using Result = stored_t<std::invoke_result_t<F&, bool>>;

    template <class... LatchArgs>
    explicit StackJob(F func, LatchArgs&&... latch_args)
        : func_(std::move(func)), latch_(std::forward<LatchArgs>(latch_args)...) {}
    StackJob(const StackJob&) = delete;
    StackJob& operator=(const StackJob&) = delete;

    JobRef as_job_ref() noexcept { return {this, &StackJob::execute}; }
    Latch& latch() noexcept { return latch_; }

    // The owner popped its own job back: run it here, no latch involved.
    Result run_inline(bool migrated) { return call(func_, migrated); }

    // Only after the latch is set.
    Result into_result() { return std::move(*result_); }

private:
    // ANCHOR: stackjob_execute
    static void execute(void* data) noexcept {
        auto* self = static_cast<StackJob*>(data);
        self->result_.emplace(call(self->func_, true));
        Latch::set(&self->latch_); // from here on *self may already be gone
    }
    // ANCHOR_END: stackjob_execute

    F func_;
    std::optional<Result> result_;
    Latch latch_;
};

} // namespace mini
