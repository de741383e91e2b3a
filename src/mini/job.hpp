// Jobs: JobRef, the two-word handle the deques carry, and StackJob, a job that lives in its
// creator's stack frame.
//
// A JobRef is a pointer to the job's data and a pointer to the function that runs it, so pushing a
// job never allocates: the job itself stays where its creator put it (for a join, on the stack of
// the joining thread) until its latch says it has run. A JobRef must be executed exactly once.
//
// Exceptions: a StackJob run through its JobRef keeps either its result or the exception its
// closure threw (rayon's JobResult: Ok or Panic), and into_result rethrows it on the thread that
// waited, so an exception reaches the caller of join or install as rayon's panics do.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cassert>
#include <exception>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace mini {

struct JobRef {
    void* data = nullptr;
    void (*execute_fn)(void*) noexcept = nullptr;

    // noexcept: whoever runs a JobRef (a thief, a worker's loop) has nobody to hand an exception
    // to. A StackJob catches its closure's exception and keeps it for its waiter; a job nobody
    // waits for aborts instead (call_or_abort).
    void execute() const noexcept { execute_fn(data); }
    friend bool operator==(const JobRef&, const JobRef&) = default;
};

// What a closure that returns void hands back, so that join can always return a pair.
struct Unit {
    friend bool operator==(Unit, Unit) = default;
};

// What a job hands back for a closure that returns R: R itself, Unit for void, and for an lvalue
// reference that reference, as rayon returns a closure's &T (an rvalue reference gives the value).
template <class R>
using stored_t = std::conditional_t<std::is_void_v<R>, Unit,
                                    std::conditional_t<std::is_rvalue_reference_v<R>,
                                                       std::remove_cvref_t<R>, R>>;

// Where a job keeps a stored_t until its waiter takes it: std::optional holds no reference, so a
// reference is kept in a std::reference_wrapper, which take() turns back into the reference.
template <class R>
using slot_t = std::conditional_t<std::is_lvalue_reference_v<R>,
                                  std::reference_wrapper<std::remove_reference_t<R>>, R>;
template <class R>
R take(std::optional<slot_t<R>>& slot) {
    return static_cast<R>(std::move(*slot));
}

// Calls f(args...), turning a void result into Unit.
template <class F, class... Args>
auto call(F& f, Args&&... args) -> stored_t<std::invoke_result_t<F&, Args...>> {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, Args...>>) {
        f(std::forward<Args>(args)...);
        return Unit{};
    } else {
        return f(std::forward<Args>(args)...);
    }
}

// call(), for a closure that runs once: `f` (and what it captured) is destroyed before this
// returns, thrown or not, as a Rust FnOnce is consumed by its call. A scope's job gives its count
// back after this, so that its captures are gone before the scope can return (scope.hpp).
template <class F, class... Args>
decltype(auto) call_once(std::optional<F>& f, Args&&... args) {
    struct Consume {
        std::optional<F>& f;
        ~Consume() { f.reset(); }
    } consume{f};
    return call(*f, std::forward<Args>(args)...);
}

[[noreturn]] inline void abort_on_exception(const char* closure, const char* what) noexcept {
    std::fprintf(stderr, "mini: an exception escaped %s: %s\n"
                         "mini: aborting: nobody waits for this job, so nobody can rethrow it\n",
                 closure, what);
    std::abort();
}

// call(), but an exception that escapes f aborts the process right here, printing its what(): for
// a job that nobody waits for, whose exception has no caller to reach (rayon-core 1.13 catches
// such a panic in Registry::catch_unwind and, with no panic handler, aborts: registry.rs
// lines 375-384). This catch is the innermost handler, so only f's own frames unwind.
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

    // The owner popped its own job back: run it here, no latch involved. An exception leaves
    // directly, to the owner's caller: nobody else holds this job any more.
    Result run_inline(bool migrated) { return call(func_, migrated); }

    // The same, but the result or the exception is kept in the job, as execute keeps it, and no
    // latch is set: into_result hands it out later. join3 (join3.hpp) runs its jobs so, to take
    // every job back before any exception leaves its frame.
    void run_kept(bool migrated) noexcept {
        try {
            result_.emplace(call(func_, migrated));
        } catch (...) {
            exception_ = std::current_exception();
        }
    }

    // Only after the latch is set: the result, or the closure's exception rethrown here.
    // ANCHOR: into_result
    Result into_result() {
        if (exception_) std::rethrow_exception(exception_);
        return take<Result>(result_);
    }
    // ANCHOR_END: into_result

private:
    // An exception is caught here, in the thread that ran the job, and kept for the waiter:
    // the latch is set either way, or the waiter would wait for good.
    // ANCHOR: stackjob_execute
    static void execute(void* data) noexcept {
        auto* self = static_cast<StackJob*>(data);
        assert(!self->result_ && !self->exception_ && "a job executed twice");
        try {
            self->result_.emplace(call(self->func_, true));
        } catch (...) {
            self->exception_ = std::current_exception(); // rayon's JobResult::Panic
        }
        Latch::set(&self->latch_); // from here on *self may already be gone
    }
    // ANCHOR_END: stackjob_execute

    F func_;
    std::optional<slot_t<Result>> result_;
    std::exception_ptr exception_; // what func_ threw, if it ran through execute and threw
    Latch latch_;
};

} // namespace mini
