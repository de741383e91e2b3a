// The SpinLatch of the per-worker sleep (-DSLEEP=per-worker, chapter 10): rayon's SpinLatch over
// its CoreLatch (rayon-core 1.13.0, latch.rs:57-221). Same interface and the same "touch nothing
// after set" rule as latch.hpp's; what changes is the wake-up. The latch knows its owner (the
// worker that made it, and waits on it), and the set swaps SET in: only if the owner had fallen
// asleep on it (SLEEPING) does the setter wake it, and only it (Sleep::latch_is_set).
#pragma once

#include <cassert>
#include <cstddef>
#include <memory>

#include <mini/probe.hpp>
#include <mini/sabotage.hpp>
#include <mini/worker_sleep.hpp>

namespace mini {

class SpinLatch {
public:
    // Made on its owner's thread: a join's B, a scope's count, a cross call's. Made elsewhere
    // (the pool's terminate latch, which every worker waits on) it has no owner, and its set
    // wakes every sleeper.
    explicit SpinLatch(Sleep* sleep) : sleep_(sleep), owner_(sleep->current_index()) {}

    struct Cross {};
    static constexpr Cross cross{};
    SpinLatch(Cross, const std::shared_ptr<Sleep>& owner)
        : sleep_(owner.get()), owner_(owner->current_index()), cross_owner_(&owner) {}

    bool probe() const noexcept { return core_.probe(); }
    CoreLatch& core() const noexcept { return core_; } // the owner's sleep moves its state
    bool shared() const noexcept { return owner_ == Sleep::no_owner; }

    // ANCHOR: worker_latch_set
    static void set(SpinLatch* self) noexcept {
        std::shared_ptr<Sleep> keep_alive; // a cross latch: as latch.hpp's
        if (self->cross_owner_ != nullptr) keep_alive = *self->cross_owner_;
        Sleep* sleep = self->sleep_;                       // read before setting ...
        const std::size_t owner = self->owner_;
        assert(!self->core_.probe() && "a latch set twice");
        const bool was_sleeping = self->core_.set();       // ... now *self may be gone
        mini::probe(Probe::latch_stored, self);
        if constexpr (sabotage::touch_after_set) sleep = self->sleep_; // [TOUCH_AFTER_SET]
        const auto woken = sleep->latch_is_set(was_sleeping, owner); // only if SLEEPING
        mini::probe(Probe::latch_set, self, woken);
    }
    // ANCHOR_END: worker_latch_set

private:
    mutable CoreLatch core_;
    Sleep* const sleep_;
    const std::size_t owner_;
    const std::shared_ptr<Sleep>* const cross_owner_ = nullptr; // the waiter's pool's, if cross
};

} // namespace mini
